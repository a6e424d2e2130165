// The gate over real HTTP: a Node server with the gate in front of a handler that echoes what
// it was handed, so each test sees both what the client got and what Next.js would have seen.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest as request, rawHttp as raw } from "../test-support/raw-http";
import { ERRORS } from "../errors";
import { resolveClientAddress } from "./client-address.mjs";
import { createGate } from "./gate.mjs";
import { crossOriginRefusal } from "./same-origin.mjs";

const BASE = "https://hallmark.example";
/** The Host a browser on the base URL sends (pages asked for on another host are redirected there). */
const OWN_HOST = { host: "hallmark.example" };

interface Running {
  url: string;
  close(): Promise<void>;
}

async function serve(baseUrl: string, trustedProxies = 0): Promise<Running> {
  const gate = createGate({ baseUrl, trustedProxies });
  const server = http.createServer((req, res) => {
    if (gate.screen(req, res)) return;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
  });
  server.on("connect", gate.onConnect);
  server.on("clientError", gate.onClientError);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe("the gate", () => {
  let https: Running;
  let plain: Running;
  let proxied: Running;
  beforeAll(async () => {
    [https, plain, proxied] = await Promise.all([serve(BASE), serve("http://localhost:3000"), serve(BASE, 1)]);
  });
  afterAll(() => Promise.all([https, plain, proxied].map((s) => s.close())));

  it("answers methods Next.js cannot represent with 405 problem+json and Allow, before anything runs", async () => {
    for (const method of ["TRACE", "PROPFIND", "PURGE", "SEARCH"]) {
      const res = await request(https.url, "/v1/log", { method });
      expect(res.status, method).toBe(405);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      // The body is the service's problem for the code: its status and title from the one table.
      expect(res.body).toMatchObject({
        ...ERRORS.method_not_allowed,
        code: "method_not_allowed",
        type: "urn:hallmark:problem:method_not_allowed",
      });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
    const connect = await raw(https.url, "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n");
    expect(connect).toMatch(/^HTTP\/1\.1 405 /);
    expect(connect).toContain('"code":"method_not_allowed"');
  });

  it("closes the connection after refusing a request whose body it did not read", async () => {
    const refused = await raw(https.url, `TRACE /v1/log HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello`);
    expect(refused).toMatch(/^HTTP\/1\.1 405 [\s\S]*\r\nconnection: close\r\n/i);
    const agent = new http.Agent({ keepAlive: true });
    const bodiless = await request(https.url, "/v1/log", { method: "TRACE", agent });
    agent.destroy();
    expect(bodiless.headers.connection).toBe("keep-alive");
  });

  it("answers what the HTTP parser refuses with problem+json, not a bare 400", async () => {
    const unknownMethod = await raw(https.url, "FROB / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(unknownMethod).toMatch(/^HTTP\/1\.1 400 /);
    expect(unknownMethod).toContain("application/problem+json");
    expect(unknownMethod).toContain('"code":"malformed_request"');
    const huge = await raw(https.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge).toContain('"code":"headers_too_large"');
    // Headers too large in a later piece of the request than its request line: the same answer.
    const split = await raw(https.url, [`GET / HTTP/1.1\r\nHost: x\r\n`, `X-Big: ${"a".repeat(20_000)}\r\n\r\n`]);
    expect(split).toMatch(/^HTTP\/1\.1 431 /);
    expect(split).toContain('"code":"headers_too_large"');
    // To a HEAD seen as such, the same answer without a body (a body would read as the start of another answer).
    const headAnswer = await raw(https.url, `HEAD / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(headAnswer).toMatch(/^HTTP\/1\.1 431 /);
    expect(headAnswer.endsWith("\r\n\r\n")).toBe(true);
  });

  it("serves pages only to GET, HEAD and OPTIONS (there are no Server Actions), and refuses a router state Next.js cannot parse", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await request(https.url, "/dashboard", { method, headers: { "next-action": "x" } });
      expect({ status: res.status, allow: res.headers.allow, code: res.body.code }, method).toEqual({
        status: 405,
        allow: "GET, HEAD, OPTIONS",
        code: "method_not_allowed",
      });
    }
    for (const state of ["garbage", "%", "[1,2", encodeURIComponent('["",{"children":7}]')]) {
      const res = await request(https.url, "/dashboard", { headers: { ...OWN_HOST, rsc: "1", "next-router-state-tree": state } });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "malformed_request" });
    }
    const valid = encodeURIComponent(JSON.stringify(["", { children: ["dashboard", {}] }]));
    expect((await request(https.url, "/dashboard", { headers: { ...OWN_HOST, rsc: "1", "next-router-state-tree": valid } })).status).toBe(
      200,
    );
  });

  it("refuses a router state nested past the JSON bound before Next.js's recursive check reads it", async () => {
    // Each route segment nests two levels: ["segment", {children: …}].
    const nested = (segments: number) => {
      let state: unknown = ["__PAGE__", {}];
      for (let i = 0; i < segments; i++) state = ["s", { children: state }];
      return encodeURIComponent(JSON.stringify(state));
    };
    const status = async (state: string) =>
      (await request(https.url, "/dashboard", { headers: { ...OWN_HOST, rsc: "1", "next-router-state-tree": state } })).status;
    expect(await status(nested(31))).toBe(200); // 64 levels
    expect(await status(nested(32))).toBe(400);
    expect(await status("[".repeat(8000) + "]".repeat(8000))).toBe(400);
  });

  it("refuses paths whose percent-encoding does not decode or that have dot-segments, and lets well-formed ones through", async () => {
    for (const path of ["/v1/attestations/%ff%fe", "/v1/foo/%E0%A4%A", "/verify/%ff", "/%", "/a%zz"]) {
      const res = await request(https.url, path);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe("malformed_request");
    }
    for (const path of ["/v1/%2e%2e", "/v1/%2E%2e/x", "/v1/./log", "/a/../v1/log", "/v1/.%2e", "/%2e"]) {
      for (const method of ["GET", "OPTIONS"]) {
        const res = await request(https.url, path, { method });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.body.code).toBe("malformed_request");
      }
    }
    expect((await request(https.url, "/v1/a..b/.well-known/%2e%2ex")).status).toBe(200);
    const ok = await request(https.url, "/v1/protections/%C3%A9t%C3%A9?q=%ff");
    expect(ok.status).toBe(200);
    expect(ok.body.url).toBe("/v1/protections/%C3%A9t%C3%A9?q=%ff");
  });

  it("pins the host to the base URL, whatever Host or X-Forwarded-Host the client sent", async () => {
    for (const [server, path] of [
      [https, "/v1/log"],
      [https, "/api/trpc/viewer.me"],
      [https, "/_next/static/chunks/x.js"],
      [https, "/healthz"],
      [proxied, "/login"],
    ] as const) {
      const res = await request(server.url, path, {
        headers: { host: "evil.example", "x-forwarded-host": "hallmark.example", "x-forwarded-proto": "http" },
      });
      expect(res.body.headers, path).toMatchObject({
        host: "hallmark.example",
        "x-forwarded-host": "hallmark.example",
        "x-forwarded-proto": "https",
      });
    }
  });

  it("redirects a page asked for on another host to the same path and query at the base URL, never a URL built from the request", async () => {
    for (const host of [
      "127.0.0.1:3000",
      "evil.example",
      "HALLMARK.EXAMPLE.",
      "hallmark.example:8443",
      "[::1]",
      "a b",
      "hallmark.example/x",
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await request(https.url, "/login?next=%2Fdashboard&x=%C3%A9", { method, headers: { host } });
        expect({ host, method, status: res.status, location: res.headers.location }).toEqual({
          host,
          method,
          status: 307,
          location: "https://hallmark.example/login?next=%2Fdashboard&x=%C3%A9",
        });
        expect(res.headers["cache-control"]).toBe("no-store");
        expect(res.headers["x-frame-options"]).toBe("DENY");
        expect(res.text).toBe(method === "HEAD" ? "" : "Hallmark is at https://hallmark.example/login?next=%2Fdashboard&x=%C3%A9\n");
      }
    }
    // A target starting "//" stays a path of the base URL.
    expect((await request(https.url, "//evil.example/x", { headers: { host: "evil.example" } })).headers.location).toBe(
      "https://hallmark.example//evil.example/x",
    );
    // The Host the base URL names, in any spelling a browser sends, is served.
    for (const host of ["hallmark.example", "Hallmark.Example", "hallmark.example:443"]) {
      expect((await request(https.url, "/login", { headers: { host } })).status, host).toBe(200);
    }
    expect((await request(plain.url, "/", { headers: { host: "localhost:3000" } })).status).toBe(200);
    expect((await request(plain.url, "/", { headers: { host: "localhost" } })).headers.location).toBe("http://localhost:3000/");
    expect((await request(plain.url, "/", { headers: { host: "127.0.0.1:3000" } })).headers.location).toBe("http://localhost:3000/");
  });

  it("serves the API, static files, operator paths and OPTIONS on any host", async () => {
    const host = { host: "127.0.0.1:3000" };
    for (const [method, path] of [
      ["GET", "/v1/log"],
      ["POST", "/v1/attestations"],
      ["GET", "/api/trpc/viewer.me"],
      ["GET", "/api/auth/csrf"],
      ["GET", "/_next/static/chunks/x.js"],
      ["GET", "/healthz"],
      ["GET", "/readyz"],
      ["GET", "/metrics"],
      ["OPTIONS", "/login"],
    ]) {
      const res = await request(https.url, path!, { method, headers: host });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it("behind trusted proxies, redirects on the host the nearest proxy names in X-Forwarded-Host, and never without one", async () => {
    // The proxy's own upstream address as Host (nginx's default): served, or every page would loop.
    expect((await request(proxied.url, "/login", { headers: { host: "127.0.0.1:3000" } })).status).toBe(200);
    expect(
      (await request(proxied.url, "/login", { headers: { host: "127.0.0.1:3000", "x-forwarded-host": "hallmark.example" } })).status,
    ).toBe(200);
    const other = await request(proxied.url, "/login?a=1", {
      headers: { host: "hallmark.example", "x-forwarded-host": "hallmark.example, www.hallmark.example" },
    });
    expect({ status: other.status, location: other.headers.location }).toEqual({
      status: 307,
      location: "https://hallmark.example/login?a=1",
    });
  });

  it("takes the client address from the connection, and from X-Forwarded-For only behind trusted proxies", async () => {
    const spoofed = { "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.8" };
    const direct = await request(https.url, "/v1/log", { headers: spoofed });
    expect(direct.body.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(direct.body.headers["x-real-ip"]).toBeUndefined();
    const viaProxy = await request(proxied.url, "/v1/log", { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7" } });
    expect(viaProxy.body.headers["x-forwarded-for"]).toBe("203.0.113.7");
  });

  it("sets the security headers on every kind of answer, HSTS only under https", async () => {
    const page = await request(https.url, "/dashboard", { headers: OWN_HOST });
    const again = await request(https.url, "/dashboard", { headers: OWN_HOST });
    const api = await request(https.url, "/v1/log");
    const file = await request(https.url, "/_next/static/chunks/x.js");
    for (const res of [page, api, file]) {
      expect(res.headers).toMatchObject({
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-frame-options": "DENY",
        "strict-transport-security": "max-age=31536000; includeSubDomains",
      });
      expect(res.headers["permissions-policy"]).toContain("camera=()");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    }
    const nonce = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];
    expect(nonce(page.headers["content-security-policy"])).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonce(page.headers["content-security-policy"])).not.toBe(nonce(again.headers["content-security-policy"]));
    expect(page.headers["content-security-policy"]).toContain("'strict-dynamic'");
    expect(page.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin");
    // Next.js reads the nonce from the request's CSP header: the gate's, never the client's.
    expect(page.body.headers["content-security-policy"]).toBe(page.headers["content-security-policy"]);
    expect(api.headers["content-security-policy"]).toMatch(/^default-src 'none'/);
    expect(file.headers["content-security-policy"]).toContain("'wasm-unsafe-eval'");
    const plainPage = await request(plain.url, "/dashboard", { headers: { host: "localhost:3000" } });
    expect(plainPage.headers["strict-transport-security"]).toBeUndefined();
    expect(plainPage.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
  });

  it("never lets a client choose the nonce", async () => {
    const planted = "script-src 'nonce-planted'";
    const page = await request(https.url, "/", { headers: { ...OWN_HOST, "content-security-policy": planted } });
    expect(page.body.headers["content-security-policy"]).not.toContain("planted");
    const api = await request(https.url, "/v1/log", {
      headers: { "content-security-policy": planted, "content-security-policy-report-only": planted },
    });
    expect(api.body.headers["content-security-policy"]).toBeUndefined();
    expect(api.body.headers["content-security-policy-report-only"]).toBeUndefined();
  });

  it("refuses a cookie-borne change from another origin with 403 problem+json", async () => {
    const cookie = "next-auth.session-token=x";
    const refused = await request(https.url, "/v1/api-keys/x/revoke", {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "cross_origin_request", status: 403, title: "Cross-origin request refused" });
    const allowed = await request(https.url, "/v1/api-keys/x/revoke", { method: "POST", headers: { cookie, origin: BASE } });
    expect(allowed.status).toBe(200);
  });
});

describe("public reads from any origin (CORS)", () => {
  let gated: Running;
  beforeAll(async () => {
    gated = await serve(BASE);
  });
  afterAll(() => gated.close());
  const origin = { origin: "https://monitor.example", host: "hallmark.example" };

  it.each([
    "/v1/log",
    "/v1/log/checkpoint",
    "/v1/log/policy",
    "/v1/log/tile/0/000",
    "/v1/log/tile/entries/000.p/7",
    "/v1/log/keys/abc",
    "/v1/log/consistency",
    "/v1/protections/att_1",
    "/v1/protections/att_1/proof-bundle",
    "/v1/protections/att_1/tlog-proof",
    "/v1/protections/att_1/certificate.pdf",
    "/v1/protections/att_1/badge.svg",
    "/v1/portfolios/u1",
    "/v1/oembed",
    "/v1/lookup",
    "/v1/openapi.json",
    "/v1/witness",
  ])("%s answers any origin, without credentials", async (path) => {
    const res = await request(gated.url, `${path}?x=1`, { headers: origin });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(res.headers["access-control-expose-headers"]).toContain("retry-after");
  });

  it.each([
    "/v1/api-keys",
    "/v1/attestations/att_1",
    "/v1/attestations/att_1/proof-bundle",
    "/v1/consumer/protections",
    "/v1/consumer/protections/att_1/proof-bundle",
    "/v1/protections/att_1/other",
    "/v1/protections/att_1/proof-bundle/x",
    "/api/trpc/log.checkpoint",
    "/verify/att_1",
  ])("%s is not readable from another origin", async (path) => {
    const res = await request(gated.url, path, { headers: origin });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("grants a preflight GET and HEAD only, with no request header (no API key, no Authorization)", async () => {
    const pre = await request(gated.url, "/v1/log/checkpoint", {
      method: "OPTIONS",
      headers: { ...origin, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    expect(pre.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    expect(pre.headers["access-control-allow-headers"]).toBeUndefined();
    const privatePath = await request(gated.url, "/v1/api-keys", {
      method: "OPTIONS",
      headers: { ...origin, "access-control-request-method": "GET" },
    });
    expect(privatePath.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("carries the header on the gate's own refusals of a public path", async () => {
    const refused = await request(gated.url, "/v1/log/tile/%zz", { headers: origin });
    expect(refused.status).toBe(400);
    expect(refused.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("crossOriginRefusal", () => {
  const ours = "https://hallmark.example";
  const cookie = { cookie: "next-auth.session-token=t" };
  const cases: [string, string, string, Record<string, string>, boolean][] = [
    ["cookie, foreign Origin", "POST", "/v1/api-keys/x/revoke", { ...cookie, origin: "https://evil.example" }, true],
    [
      "cookie, a sibling origin of the same site",
      "POST",
      "/api/trpc/apiKeys.create",
      { ...cookie, origin: "https://other.hallmark.example" },
      true,
    ],
    ["cookie, the same host over http", "POST", "/v1/issuers/x/keys", { ...cookie, origin: "http://hallmark.example" }, true],
    ["cookie, Origin null", "DELETE", "/v1/x", { ...cookie, origin: "null" }, true],
    ["cookie, own Origin", "POST", "/v1/api-keys/x/revoke", { ...cookie, origin: ours }, false],
    [
      "cookie, no Origin, Sec-Fetch-Site same-origin",
      "PATCH",
      "/v1/attestation-packs/x",
      { ...cookie, "sec-fetch-site": "same-origin" },
      false,
    ],
    ["cookie, no Origin, Sec-Fetch-Site same-site", "POST", "/v1/x", { ...cookie, "sec-fetch-site": "same-site" }, true],
    ["cookie, no Origin, Sec-Fetch-Site cross-site", "POST", "/v1/x", { ...cookie, "sec-fetch-site": "cross-site" }, true],
    ["cookie and nothing to show where it comes from", "POST", "/v1/consumer/logout", cookie, true],
    ["no cookie, no Origin (curl, a server)", "POST", "/v1/consumer/login", {}, false],
    ["login form posted from elsewhere, no cookie", "POST", "/v1/consumer/login", { origin: "https://evil.example" }, true],
    ["next-auth credentials from elsewhere", "POST", "/api/auth/callback/credentials", { origin: "https://evil.example" }, true],
    [
      "an API key, whatever the Origin",
      "POST",
      "/v1/attestations",
      { ...cookie, "x-api-key": "hm_live_x", origin: "https://evil.example" },
      false,
    ],
    ["a blank API key is no key", "POST", "/v1/attestations", { ...cookie, "x-api-key": " ", origin: "https://evil.example" }, true],
    [
      "X-API-Key is no credential on /api/trpc",
      "POST",
      "/api/trpc/apiKeys.create",
      { ...cookie, "x-api-key": "k", origin: "https://evil.example" },
      true,
    ],
    [
      "a bearer token, whatever the Origin",
      "POST",
      "/api/trpc/apiKeys.create",
      { authorization: "Bearer t", origin: "https://evil.example" },
      false,
    ],
    ["reads are never refused", "GET", "/v1/api-keys", { ...cookie, origin: "https://evil.example" }, false],
  ];
  it.each(cases)("%s", (_name, method, path, headers, refused) => {
    expect(crossOriginRefusal(method, path, headers, ours) !== null).toBe(refused);
  });
});

describe("resolveClientAddress", () => {
  it.each([
    ["no proxy: the peer, whatever the header says", "203.0.113.7", "10.0.0.1", 0, "10.0.0.1"],
    ["an IPv4-mapped peer is written as IPv4", undefined, "::ffff:10.0.0.1", 0, "10.0.0.1"],
    ["one proxy: the entry it appended", "198.51.100.1, 203.0.113.7", "10.0.0.1", 1, "203.0.113.7"],
    ["two proxies: the entry the outer one appended", "198.51.100.1, 203.0.113.7, 10.0.0.2", "10.0.0.1", 2, "203.0.113.7"],
    ["more trusted proxies than entries: the leftmost", "203.0.113.7", "10.0.0.1", 3, "203.0.113.7"],
    ["one proxy, no header: the proxy itself", undefined, "10.0.0.1", 1, "10.0.0.1"],
    ["an IPv4 entry's port is dropped (a client chooses its port)", "203.0.113.7:51234", "10.0.0.1", 1, "203.0.113.7"],
    ["a bracketed IPv6 entry's port and brackets are dropped", "[2001:db8::1]:443", "10.0.0.1", 1, "2001:db8::1"],
    ["a bracketed IPv6 entry without a port", "[2001:db8::1]", "10.0.0.1", 1, "2001:db8::1"],
    ["an IPv6 entry is kept whole (its colons are not a port)", "2001:db8::1", "10.0.0.1", 1, "2001:db8::1"],
    ["an IPv4-mapped entry in capitals is written as IPv4", "::FFFF:203.0.113.7", "10.0.0.1", 1, "203.0.113.7"],
  ] as const)("%s", (_name, forwarded, peer, trusted, expected) => {
    expect(resolveClientAddress(forwarded, peer, trusted)).toBe(expected);
  });
});
