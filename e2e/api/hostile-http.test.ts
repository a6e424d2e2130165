// @hallmark-test db=sqlite lane=main
// What a hostile client sends at the HTTP level gets a clear 4xx problem+json, never a 500 and
// never an answer shaped by the client's Host; every answer carries the security headers.
import type http from "node:http";
import net from "node:net";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { httpRequest, rawHttp } from "@/server/test-support/raw-http";
import { api, baseUrl, createIssuer, expectProblem, sessionToken } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

const MiB = 1024 * 1024;
const problemOf = (r: { status: number; headers: http.IncomingHttpHeaders; body: any }) => ({
  status: r.status,
  type: r.headers["content-type"],
  code: r.body?.code,
});

describe("hostile HTTP", () => {
  it("answers methods Next.js cannot take with 405 problem+json on every kind of path", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "PURGE"]) {
      for (const path of ["/v1/log", "/", "/api/trpc/viewer.me", "/api/auth/session", "/verify/x"]) {
        const res = await httpRequest(baseUrl, path, { method });
        expect(problemOf(res), `${method} ${path}`).toEqual({ status: 405, type: "application/problem+json", code: "method_not_allowed" });
      }
    }
    const connect = await rawHttp(baseUrl, "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n");
    expect(connect).toMatch(/^HTTP\/1\.1 405 /);
    // Methods and headers the HTTP parser itself refuses: 400 problem+json.
    for (const request of ["TRACK /v1/log HTTP/1.1\r\nHost: x\r\n\r\n", "GET /v1/log HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"]) {
      expect(await rawHttp(baseUrl, request)).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"malformed_request"/);
    }
  });

  it("answers paths whose percent-encoding does not decode with 400 problem+json", async () => {
    for (const path of [
      "/v1/attestations/%ff%fe",
      "/v1/attestations/%ff%fe/proof-bundle",
      "/v1/foo/%E0%A4%A",
      "/verify/%ff",
      "/share/%c0%af",
      "/api/trpc/%ff",
      "/api/auth/%ff",
      "/%",
    ]) {
      const res = await httpRequest(baseUrl, path);
      expect(problemOf(res), path).toEqual({ status: 400, type: "application/problem+json", code: "malformed_request" });
    }
  });

  it("answers paths with dot-segments, encoded or not, with 400 problem+json, whatever the method", async () => {
    for (const path of ["/v1/%2e%2e", "/v1/%2e%2e?input=%ff", "/v1/./log", "/verify/../v1/log", "/api/trpc/%2E"]) {
      for (const method of ["GET", "OPTIONS", "POST"]) {
        const res = await httpRequest(baseUrl, path, { method });
        expect(problemOf(res), `${method} ${path}`).toEqual({ status: 400, type: "application/problem+json", code: "malformed_request" });
      }
    }
  });

  it("answers an id that is not a UUID as an unknown one, on pages and procedures, never 500", async () => {
    const ids = ["a".repeat(400), "%00", "x", "%F0%9F%98%80"];
    for (const id of ids) {
      for (const page of ["/verify/", "/share/", "/portfolio/"]) {
        const res = await httpRequest(baseUrl, page + id);
        expect(res.status, page + id.slice(0, 20)).toBe(404);
      }
      const input = encodeURIComponent(JSON.stringify({ id: decodeURIComponent(id) }));
      const res = await httpRequest(baseUrl, `/api/trpc/public.protection?input=${input}`);
      expect(res.status, id.slice(0, 20)).toBe(404);
    }
  });

  it("treats a malformed session cookie as no cookie at all", async () => {
    const { apiKey } = await seedConsumer();
    for (const cookie of [
      "next-auth.session-token=%",
      "next-auth.session-token=%E0%A4%A",
      "next-auth.session-token",
      "=;;=%;next-auth.session-token=\u00ff",
    ]) {
      const headers = { cookie };
      expect((await httpRequest(baseUrl, "/v1/log", { headers })).status, cookie).toBe(200);
      expect((await httpRequest(baseUrl, "/v1/api-keys", { headers })).body.code, cookie).toBe("unauthenticated");
      expect((await httpRequest(baseUrl, "/v1/api-keys", { headers: { ...headers, "x-api-key": apiKey } })).status).toBe(200);
      expect((await httpRequest(baseUrl, "/api/trpc/viewer.me", { headers })).body.result.data, cookie).toBeNull();
      const page = await httpRequest(baseUrl, "/dashboard", { headers });
      expect(page.status, cookie).toBe(307);
      expect(page.headers.location).toBe("/login?next=%2Fdashboard");
    }
  });

  it("never builds a URL from the client's Host", async () => {
    const host = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    for (const path of ["/login/", "/v1/log/", "/dashboard", "/console", "/api/auth/providers", "/api/auth/csrf", "/v1/log"]) {
      const res = await httpRequest(baseUrl, path, { headers: host });
      expect(res.status, path).toBeLessThan(500);
      expect(`${res.headers.location ?? ""} ${res.text}`, path).not.toContain("evil.example");
    }
    // What next-auth tells the browser names Hallmark's own base URL.
    const providers = await httpRequest(baseUrl, "/api/auth/providers", { headers: host });
    expect(providers.body.credentials.callbackUrl).toBe(`${baseUrl}/api/auth/callback/credentials`);
  });

  it("puts the security headers on every answer: pages, API, errors, static files", async () => {
    const page = await httpRequest(baseUrl, "/login");
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeTruthy();
    const answers = {
      page,
      missingPage: await httpRequest(baseUrl, "/no-such-page"),
      api: await httpRequest(baseUrl, "/v1/log"),
      apiError: await httpRequest(baseUrl, "/v1/api-keys"),
      unknownApi: await httpRequest(baseUrl, "/v1/nope"),
      trpc: await httpRequest(baseUrl, "/api/trpc/viewer.me"),
      auth: await httpRequest(baseUrl, "/api/auth/csrf"),
      staticFile: await httpRequest(baseUrl, script!),
      refused: await httpRequest(baseUrl, "/v1/log", { method: "TRACE" }),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers, what).toMatchObject({
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-frame-options": "DENY",
      });
      expect(res.headers["permissions-policy"], what).toMatch(/camera=\(\)/);
      expect(res.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
      // Served over http here: no HSTS (an https base URL adds it; server/gate/gate.test.ts).
      expect(res.headers["strict-transport-security"], what).toBeUndefined();
    }
    for (const res of [answers.page, answers.missingPage]) {
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      // Every script of the page carries the nonce; no inline script runs without it.
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(answers.api.headers["content-security-policy"]).toMatch(/^default-src 'none'/);
    expect(answers.missingPage.status).toBe(404);
  });

  it("serves next-auth's used routes only; the rest are problem+json, never 500", async () => {
    const cases: [string, string, number, string][] = [
      ["GET", "/api/auth/signin?callbackUrl=NaN", 404, "not_found"],
      ["GET", "/api/auth/signin?callbackUrl=javascript:alert(1)", 404, "not_found"],
      ["GET", "/api/auth/signin/credentials", 404, "not_found"],
      ["GET", "/api/auth/callback/credentials", 405, "method_not_allowed"],
      ["GET", "/api/auth/error?error=x", 404, "not_found"],
      ["POST", "/api/auth/_log", 404, "not_found"],
      ["POST", "/api/auth/session", 405, "method_not_allowed"],
      ["PUT", "/api/auth/session", 405, "method_not_allowed"],
    ];
    for (const [method, path, status, code] of cases) {
      const res = await api(path, {
        method,
        raw: method === "GET" ? undefined : "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expectProblem(res, status, code);
    }
    const asJson = await api("/api/auth/callback/credentials", {
      method: "POST",
      raw: "{",
      headers: { "content-type": "application/json" },
    });
    expectProblem(asJson, 415, "unsupported_media_type");
  });

  it("next-auth sends a login back to Hallmark's own origin, whatever callbackUrl it was given", async () => {
    const consumer = await seedConsumer();
    for (const callbackUrl of [
      "https://evil.example/x",
      "//evil.example",
      "javascript:alert(1)",
      "NaN",
      "/\t/evil.example",
      "/dashboard/protections?x=1",
    ]) {
      const csrf = await api("/api/auth/csrf");
      const cookie = (csrf.headers.get("set-cookie") ?? "").split(";")[0]!;
      const form = new URLSearchParams({
        csrfToken: csrf.body.csrfToken,
        email: consumer.email,
        password: consumer.password,
        callbackUrl,
        json: "true",
      });
      const res = await api("/api/auth/callback/credentials", {
        method: "POST",
        raw: form.toString(),
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie,
          origin: baseUrl,
          "x-forwarded-for": `10.7.${Math.floor(Math.random() * 250)}.1`,
        },
      });
      expect(res.status, `${callbackUrl}: ${res.text}`).toBe(200);
      const landing = new URL(res.body.url);
      expect(landing.origin, callbackUrl).toBe(baseUrl);
      if (callbackUrl.startsWith("/dashboard")) expect(landing.pathname + landing.search).toBe(callbackUrl);
    }
  });

  it("reads at most the body limit of a 100 MiB upload to /api/trpc, then answers 413", async () => {
    // A raw socket: the answer is read as it comes, however the server ends the upload.
    const { hostname, port } = new URL(baseUrl);
    const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`;
    const { answer, sent } = await new Promise<{ answer: string; sent: number }>((resolve) => {
      let answer = "";
      let sent = 0;
      let closed = false;
      const socket = net.connect(Number(port), hostname, async () => {
        socket.write(
          `POST /api/trpc/consumerAuth.signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        while (!closed && !answer && sent < 100 * MiB) {
          sent += 0x10000;
          if (!socket.write(chunk)) await new Promise((r) => (socket.once("drain", r), socket.once("close", r)));
        }
        if (!closed && !answer) socket.end("0\r\n\r\n");
      });
      socket.setEncoding("utf8");
      socket.on("data", (d) => (answer += d));
      socket.on("error", () => {}); // EPIPE/ECONNRESET once the server stops reading: expected
      socket.on("close", () => ((closed = true), resolve({ answer, sent })));
      setTimeout(() => socket.destroy(), 20_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
    // The server stopped reading past the limit and its drain allowance: the rest was never sent.
    expect(sent).toBeLessThan(24 * MiB);
  });

  it("keeps its 413 readable for a client that reads only after it has sent more than the server will take", async () => {
    // The client sends 12 MiB without reading, waits, then reads. The server stops at its limit
    // and drain allowance and answers; had it then closed at once, the bytes still arriving would
    // have drawn a reset that makes the client's kernel drop the answer before it is read.
    const { hostname, port } = new URL(baseUrl);
    const body = Buffer.alloc(12 * MiB, "a");
    const answer = await new Promise<string>((resolve) => {
      let text = "";
      const socket = net.connect(Number(port), hostname, () => {
        socket.pause();
        socket.write(
          `POST /v1/consumer/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body);
        setTimeout(() => socket.resume(), 1_000);
      });
      socket.setEncoding("utf8");
      socket.on("data", (d) => (text += d));
      socket.on("error", () => {}); // a reset after the answer was read is fine; before it, the answer is empty
      socket.on("close", () => resolve(text));
      setTimeout(() => socket.destroy(), 15_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });

  it("refuses a string that is not well-formed Unicode with 422 and a pointer, on every route and procedure that takes one", async () => {
    const org = await seedOrg();
    const issuer = await createIssuer(org.apiKey);
    const consumer = await seedConsumer();
    const cookie = `next-auth.session-token=${await sessionToken(consumer.email, consumer.password)}`;
    const lone = '"x\\ud800y"';
    const rest: [string, string, string | undefined, string][] = [
      ["/v1/issuers", `{"name":${lone},"domain":"a.example.org"}`, org.apiKey, "/name"],
      ["/v1/api-keys", `{"name":${lone},"scopes":["attestations:read"]}`, org.apiKey, "/name"],
      ["/v1/attestations", `{"issuer_id":"${issuer.id}","payload":{"a":{${lone}:1}}}`, org.apiKey, "/payload/a/x\ud800y"],
      ["/v1/attestation-packs", `{"name":${lone},"rules":{}}`, org.apiKey, "/name"],
      ["/v1/verifications", `{"attestation_id":${lone}}`, org.apiKey, "/attestation_id"],
      ["/v1/consumer/mint", `{"content_hash":"${"a".repeat(64)}","title":${lone}}`, consumer.apiKey, "/title"],
      ["/v1/consumer/signup", `{"email":"a@example.org","password":"long enough","name":${lone}}`, undefined, "/name"],
      ["/v1/consumer/login", `{"email":${lone},"password":"x"}`, undefined, "/email"],
      ["/v1/consumer/resend-verification", `{"email":${lone}}`, undefined, "/email"],
      ["/v1/consumer/verify-email", `{"token":${lone}}`, undefined, "/token"],
    ];
    for (const [path, raw, key, pointer] of rest) {
      const res = await api(path, { key, raw, headers: { "content-type": "application/json" } });
      expectProblem(res, 422, "validation_failed");
      expect(
        res.body.errors.map((e: { pointer: string }) => e.pointer),
        path,
      ).toEqual([pointer]);
    }
    const trpc: [string, string][] = [
      ["consumerAuth.signup", `{"email":"a@example.org","password":"long enough","name":${lone}}`],
      ["consumerAuth.login", `{"email":${lone},"password":"x"}`],
      ["apiKeys.create", `{"name":${lone},"scopes":["protections:read"]}`],
      ["apiKeys.revoke", `{"id":${lone}}`],
    ];
    for (const [procedure, raw] of trpc) {
      const res = await api(`/api/trpc/${procedure}`, { raw, headers: { "content-type": "application/json", cookie, origin: baseUrl } });
      expectProblem(res, 422, "validation_failed");
      expect(res.body.errors[0].pointer, procedure).toMatch(/^\/(name|email|id)$/);
    }
    const query = await api(`/api/trpc/public.protection?input=${encodeURIComponent(`{"id":${lone}}`)}`);
    expectProblem(query, 422, "validation_failed");
    expect(query.body.errors[0].pointer).toBe("/id");
    // A well-formed pair (an emoji written as two escapes) is fine.
    const pair = await api("/v1/issuers", {
      key: org.apiKey,
      raw: `{"name":"\\ud83d\\ude00 ${randomUUID()}","domain":"b.example.org"}`,
      headers: { "content-type": "application/json" },
    });
    expect(pair.status, pair.text).toBe(201);
  });
});
