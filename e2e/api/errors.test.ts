// @hallmark-test db=sqlite,postgres lane=main
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectProblem, logInfo, streamOf, type ApiResponse, orgWithIssuer } from "./helpers";
import { seedConsumer } from "../accounts";

const pointers = (res: ApiResponse) => (res.body?.errors ?? []).map((e: { pointer: string }) => e.pointer) as string[];
const KiB = 1024;

/** An attestation request body of exactly `bytes` bytes (whitespace padding) with a `fill`-character payload string. */
function bodyOfSize(issuerId: string, bytes: number, fill = 10): string {
  const json = JSON.stringify({ issuer_id: issuerId, payload: { b: "a".repeat(fill) } });
  return json + " ".repeat(bytes - json.length);
}

describe("errors", () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    ({ key, issuerId } = await orgWithIssuer());
  });
  const post = (path: string, json: unknown) => api(path, { key, json });

  it("answers invalid fields with 422 validation_failed and JSON pointers to each field", async () => {
    const cases: [string, unknown, string[]][] = [
      ["/v1/attestations", { issuer_id: "nope", payload: "x" }, ["/issuer_id", "/payload"]],
      ["/v1/attestations", {}, ["/issuer_id", "/payload"]],
      ["/v1/attestations", { issuer_id: issuerId, payload: { a: 1 }, extra: true }, ["/extra"]],
      ["/v1/issuers", { name: "", domain: "not a host" }, ["/name", "/domain"]],
      ["/v1/issuers", { name: "n", domain: "localhost" }, ["/domain"]],
      ["/v1/issuers", { name: 5, domain: "a.example.org", tenant_id: randomUUID() }, ["/name", "/tenant_id"]],
      ["/v1/api-keys", { name: "k", scopes: ["attestations:read", "root"] }, ["/scopes/1"]],
      [
        "/v1/api-keys",
        { name: "k", scopes: [], daily_quota: -1, rate_limit_per_minute: 1.5 },
        ["/scopes", "/daily_quota", "/rate_limit_per_minute"],
      ],
    ];
    for (const [path, body, expected] of cases) {
      const res = await post(path, body);
      expectProblem(res, 422, "validation_failed");
      expect(pointers(res).sort(), JSON.stringify(body)).toEqual(expected.sort());
      for (const e of res.body.errors) expect(e.detail).toEqual(expect.any(String));
    }
  });

  it("signs exactly what was sent, or refuses it: duplicate members and inexact numbers are 422 with pointers, and write nothing", async () => {
    const consumer = await seedConsumer();
    const raw = (path: string, text: string, k = key) => api(path, { key: k, raw: text, headers: { "content-type": "application/json" } });
    const before = await logInfo();
    const cases: [string, string, string, string[]][] = [
      [key, "/v1/attestations", `{"issuer_id":"${issuerId}","payload":{"a":1,"a":2}}`, ["/payload/a"]],
      [key, "/v1/attestations", `{"issuer_id":"${issuerId}","issuer_id":"${issuerId}","payload":{"a":1}}`, ["/issuer_id"]],
      [key, "/v1/attestations", `{"issuer_id":"${issuerId}","payload":{"n":12345678901234567890}}`, ["/payload/n"]],
      [
        key,
        "/v1/attestations",
        `{"issuer_id":"${issuerId}","payload":{"n":[9007199254740993,1e-400,1e400,0.30000000000000000001]}}`,
        ["/payload/n/0", "/payload/n/1", "/payload/n/2", "/payload/n/3"],
      ],
      [key, "/v1/attestations", `{"issuer_id":"${issuerId}","payload":{"x":{"k\u0061":1,"ka":2}}}`, ["/payload/x/ka"]],
      [
        consumer.apiKey,
        "/v1/consumer/mint",
        `{"content_hash":"${"a".repeat(64)}","ai_metadata":{"score":1e21,"t":1,"t":2}}`,
        ["/ai_metadata/score", "/ai_metadata/t"],
      ],
      [key, "/v1/attestation-packs", `{"name":"p","rules":{"max_age_days":7,"max_age_days":9}}`, ["/rules/max_age_days"]],
      [key, "/v1/api-keys", `{"name":"k","scopes":["attestations:read"],"daily_quota":1e30}`, ["/daily_quota"]],
    ];
    for (const [k, path, text, expected] of cases) {
      const res = await raw(path, text, k);
      expectProblem(res, 422, "validation_failed");
      expect(pointers(res), text).toEqual(expected);
    }
    const after = await logInfo();
    expect(after.tree_size).toBe(before.tree_size);
    expect((await api("/v1/consumer/protections", { key: consumer.apiKey })).body.total).toBe(0);
    // What survives a parse and a print is signed exactly as sent.
    const exact = await raw("/v1/attestations", `{"issuer_id":"${issuerId}","payload":{"n":[0.1,9007199254740991,5e-324,1E2]}}`);
    expect(exact.status, exact.text).toBe(201);
    expect(exact.body.payload).toEqual({ n: [0.1, 9007199254740991, 5e-324, 100] });
  });

  it("requires the payload to be a JSON object", async () => {
    for (const payload of ["text", 5, null, true, [1, 2], [], [{ a: 1 }]]) {
      const res = await post("/v1/attestations", { issuer_id: issuerId, payload });
      expectProblem(res, 422, "validation_failed");
      expect(pointers(res), JSON.stringify(payload)).toEqual(["/payload"]);
    }
    for (const body of [[], "x", 1, null]) expectProblem(await post("/v1/attestations", body), 422, "validation_failed");
  });

  it("caps the payload at 65,233 bytes of canonical JSON (UTF-8 bytes), and rejects deep nesting and lone surrogates", async () => {
    // Canonical {"b":"…"} is 8 bytes plus the string; "é" is 2 bytes.
    expect((await post("/v1/attestations", { issuer_id: issuerId, payload: { b: "a".repeat(65_233 - 8) } })).status).toBe(201);
    for (const payload of [{ b: "a".repeat(65_234 - 8) }, { b: "é".repeat((65_234 - 8) / 2) }, { b: "a".repeat(64 * KiB) }]) {
      const res = await post("/v1/attestations", { issuer_id: issuerId, payload });
      expectProblem(res, 422, "validation_failed");
      expect(pointers(res)).toEqual(["/payload"]);
    }
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expectProblem(await post("/v1/attestations", { issuer_id: issuerId, payload: deep }), 422, "validation_failed");
    const lone = await api("/v1/attestations", {
      key,
      raw: `{"issuer_id":"${issuerId}","payload":{"t":"\\ud800"}}`,
      headers: { "content-type": "application/json" },
    });
    expectProblem(lone, 422, "validation_failed");
  });

  it("answers a body over 256 KiB with 413, with a Content-Length and chunked alike", async () => {
    const json = { "content-type": "application/json" };
    const atLimit = await api("/v1/attestations", { key, raw: bodyOfSize(issuerId, 256 * KiB, 65 * KiB), headers: json });
    expectProblem(atLimit, 422, "validation_failed");
    const over = bodyOfSize(issuerId, 256 * KiB + 1);
    expectProblem(await api("/v1/attestations", { key, raw: over, headers: json }), 413, "payload_too_large");
    expectProblem(await api("/v1/attestations", { key, raw: streamOf(over), headers: json }), 413, "payload_too_large");
    expectProblem(
      await api("/v1/attestations", { key, raw: streamOf(bodyOfSize(issuerId, 4096 * KiB)), headers: json }),
      413,
      "payload_too_large",
    );
    const small = await api("/v1/attestations", { key, raw: streamOf(bodyOfSize(issuerId, 100 * KiB), 1000), headers: json });
    expect(small.status, small.text).toBe(201);
    expectProblem(await api("/v1/issuers", { key, raw: bodyOfSize(issuerId, 300 * KiB), headers: json }), 413, "payload_too_large");
    expectProblem(await api("/v1/api-keys", { key, raw: bodyOfSize(issuerId, 300 * KiB), headers: json }), 413, "payload_too_large");
  });

  it("answers a body that is not declared JSON with 415 unsupported_media_type, and unparseable JSON with 415 malformed_json", async () => {
    const body = JSON.stringify({ issuer_id: issuerId, payload: { a: 1 } });
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      undefined,
    ]) {
      const res = await api("/v1/attestations", { key, raw: body, headers: type ? { "content-type": type } : {} });
      expectProblem(res, 415, "unsupported_media_type");
    }
    const ok = await api("/v1/attestations", { key, raw: body, headers: { "content-type": "Application/JSON; charset=utf-8" } });
    expect(ok.status, ok.text).toBe(201);
    const malformed: (string | Uint8Array)[] = [
      "",
      "{",
      "{'a':1}",
      '{"issuer_id":1,}',
      "nul",
      '{"a":1}{"b":2}',
      new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    ];
    for (const raw of malformed) {
      const res = await api("/v1/attestations", { key, raw, headers: { "content-type": "application/json" } });
      expectProblem(res, 415, "malformed_json");
    }
  });

  it("answers a wrong method with 405 and an Allow header", async () => {
    const cases: [string, string, string[]][] = [
      ["DELETE", "/v1/attestations", ["POST"]],
      ["GET", "/v1/attestations", ["POST"]],
      ["PUT", "/v1/api-keys", ["GET", "POST"]],
      ["PATCH", `/v1/issuers/${issuerId}`, ["GET"]],
      ["GET", `/v1/api-keys/${randomUUID()}/revoke`, ["POST"]],
      ["GET", `/v1/issuers/${issuerId}/keys`, ["POST"]],
      ["POST", "/v1/log", ["GET"]],
      ["DELETE", "/v1/log/checkpoint", ["GET"]],
      ["PUT", "/v1/log/consistency", ["GET"]],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await api(path, { key, method });
      expectProblem(res, 405, "method_not_allowed");
      const allow = (res.headers.get("allow") ?? "").split(/,\s*/);
      for (const m of allowed) expect(allow, `${method} ${path}`).toContain(m);
      expect(allow).not.toContain(method);
    }
    expect((await api("/v1/log", { method: "HEAD" })).status).toBe(200);
  });

  it("answers unknown /v1 paths with a 404 problem", async () => {
    for (const path of ["/v1/nope", "/v1/attestations/x/y/z", "/v1/issuers/x/keys/y", "/v1/log/nope", "/v1/API-KEYS", "/v1", "/v1/"]) {
      for (const method of ["GET", "POST", "DELETE"]) expectProblem(await api(path, { key, method }), 404, "not_found");
    }
  });

  it("writes nothing when a create fails", async () => {
    const before = await logInfo();
    const issuersBefore = (await api("/v1/issuers", { key })).body.total;
    const keysBefore = (await api("/v1/api-keys", { key })).body.length;
    const bad: [string, string, string][] = [
      ["/v1/attestations", JSON.stringify({ issuer_id: issuerId, payload: [] }), "application/json"],
      ["/v1/attestations", JSON.stringify({ issuer_id: randomUUID(), payload: { a: 1 } }), "application/json"],
      ["/v1/attestations", JSON.stringify({ issuer_id: issuerId, payload: { a: 1 }, x: 1 }), "application/json"],
      ["/v1/attestations", JSON.stringify({ issuer_id: issuerId, payload: { a: 1 } }), "text/plain"],
      ["/v1/attestations", bodyOfSize(issuerId, 300 * KiB), "application/json"],
      ["/v1/issuers", JSON.stringify({ name: "x", domain: "bad domain" }), "application/json"],
      ["/v1/issuers", '{"name":"x","domain":"ok.example.org"', "application/json"],
      ["/v1/api-keys", JSON.stringify({ name: "x", scopes: ["nope"] }), "application/json"],
      ["/v1/api-keys", JSON.stringify({ name: "", scopes: ["attestations:read"] }), "application/json"],
    ];
    const answers = await Promise.all(bad.map(([path, raw, type]) => api(path, { key, raw, headers: { "content-type": type } })));
    for (const res of answers) expect(res.status >= 400 && res.status < 500, res.text).toBe(true);
    const after = await logInfo();
    expect({ size: after.tree_size, root: after.root_hash }).toEqual({ size: before.tree_size, root: before.root_hash });
    expect((await api("/v1/issuers", { key })).body.total).toBe(issuersBefore);
    expect((await api("/v1/api-keys", { key })).body.length).toBe(keysBefore);
  });
});
