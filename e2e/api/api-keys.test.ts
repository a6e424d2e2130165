// @hallmark-test db=sqlite,postgres lane=main
import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, api, baseUrls, createIssuer, createKey, expectProblem, expectSameProblem, organisationRequests } from "./helpers";
import { seedOrg } from "../accounts";

const FIELDS = ["created_at", "daily_quota", "id", "name", "prefix", "rate_limit_per_minute", "scopes", "status"];
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A key of the right shape with a correct checksum that was never issued. */
function wellFormedUnknownKey(): string {
  let body = "hm_live_";
  for (let i = 0; i < 32; i++) body += B62[Math.floor(Math.random() * 62)];
  let n = zlib.crc32(body);
  let check = "";
  for (let i = 0; i < 6; i++) {
    check = B62[n % 62] + check;
    n = Math.floor(n / 62);
  }
  return body + check;
}

/** Every endpoint with a request that key `k` would be allowed to make if valid. */
function everyEndpoint(k: string, issuerId: string) {
  const id = randomUUID();
  return [
    api("/v1/log", { key: k }),
    api("/v1/log/checkpoint", { key: k }),
    api("/v1/log/consistency?first=1&second=1", { key: k }),
    ...organisationRequests(k, issuerId, id),
    api("/v1/api-keys", { key: k }),
    api("/v1/api-keys", { key: k, json: { name: "x", scopes: ["attestations:read"] } }),
    api(`/v1/api-keys/${id}/revoke`, { key: k, method: "POST" }),
  ];
}

describe("api keys", () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await seedOrg()).apiKey;
  });

  it("lists keys as a bare array of exactly the interface's fields, never the secret", async () => {
    const res = await api("/v1/api-keys", { key: admin });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const item of res.body) expect(Object.keys(item).sort()).toEqual(FIELDS);
    const boot = res.body.find((k: { prefix: string }) => admin.startsWith(k.prefix));
    expect(boot).toMatchObject({ status: "ACTIVE", scopes: expect.arrayContaining([...ALL_SCOPES]) });
    expect(boot.prefix.length).toBeLessThan(admin.length / 2);
    expect(res.text).not.toContain(admin);
    expect(res.text).not.toContain(admin.slice(boot.prefix.length));
    expect(res.text).not.toMatch(/hash|secret/i);
  });

  it("creates a key whose secret is returned once, in `key`, and which works", async () => {
    const body = { name: "ci deploy", scopes: ["issuers:read", "attestations:read"], daily_quota: 5000, rate_limit_per_minute: 60 };
    const res = await api("/v1/api-keys", { key: admin, json: body });
    expect(res.status, res.text).toBe(201);
    const made = res.body;
    expect(made).toMatchObject({ ...body, status: "ACTIVE" });
    expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.key).toMatch(/^hm_live_[0-9A-Za-z]{38}$/);
    expect(made.key.startsWith(made.prefix)).toBe(true);
    expect(Object.keys(made).sort()).toEqual([...FIELDS, "key"].sort());

    expect((await api("/v1/issuers", { key: made.key })).status).toBe(200);
    const list = await api("/v1/api-keys", { key: admin });
    const listed = list.body.find((k: { id: string }) => k.id === made.id);
    const { key: _secret, ...view } = made;
    expect(listed).toEqual(view);
    expect(list.text).not.toContain(made.key);
  });

  it("revokes a key: 401 on every endpoint at once, including the public log; revoking again is idempotent", async () => {
    const issuerId = (await createIssuer(admin)).id;
    const victim = await createKey(admin, ALL_SCOPES);
    expect((await api("/v1/issuers", { key: victim.key })).status).toBe(200);

    const revoked = await api(`/v1/api-keys/${victim.id}/revoke`, { key: admin, method: "POST" });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toEqual({ id: victim.id, status: "REVOKED" });

    const garbage = await api("/v1/issuers", { key: "hm_live_garbage" });
    for (const res of await Promise.all(everyEndpoint(victim.key, issuerId))) {
      expectProblem(res, 401, "invalid_api_key");
      expectSameProblem(res, garbage);
    }
    expect((await api("/v1/log")).status).toBe(200);

    const again = await api(`/v1/api-keys/${victim.id}/revoke`, { key: admin, method: "POST" });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: { id: victim.id, status: "REVOKED" } });
    const listed = (await api("/v1/api-keys", { key: admin })).body.find((k: { id: string }) => k.id === victim.id);
    expect(listed.status).toBe("REVOKED");
  });

  it(`takes a revocation on one instance into effect on the other at once (${baseUrls.length} instance(s))`, async () => {
    const other = baseUrls.length - 1;
    for (let round = 0; round < 3; round++) {
      const k = await createKey(admin, ["issuers:read"], { instance: 0 });
      expect((await api("/v1/issuers", { key: k.key, instance: other })).status).toBe(200);
      expect((await api(`/v1/api-keys/${k.id}/revoke`, { key: admin, method: "POST", instance: 0 })).status).toBe(200);
      expectProblem(await api("/v1/issuers", { key: k.key, instance: other }), 401, "invalid_api_key");
      expectProblem(await api("/v1/log", { key: k.key, instance: other }), 401, "invalid_api_key");
    }
  });

  it("answers another tenant's key id exactly like an unknown one, and leaves that key working", async () => {
    const theirAdmin = (await seedOrg()).apiKey;
    const theirs = await createKey(theirAdmin, ["issuers:read"]);
    const res = await api(`/v1/api-keys/${theirs.id}/revoke`, { key: admin, method: "POST" });
    expectProblem(res, 404, "not_found");
    expectSameProblem(res, await api(`/v1/api-keys/${randomUUID()}/revoke`, { key: admin, method: "POST" }));
    expectProblem(await api(`/v1/api-keys/nope/revoke`, { key: admin, method: "POST" }), 404, "not_found");
    expect((await api("/v1/issuers", { key: theirs.key })).status).toBe(200);
    const mine = (await api("/v1/api-keys", { key: admin })).body as { id: string }[];
    expect(mine.some((k) => k.id === theirs.id)).toBe(false);
  });

  it("enforces scopes: a read-only key gets 403 insufficient_scope on writes and on key management", async () => {
    const issuerId = (await createIssuer(admin)).id;
    const ro = await createKey(admin, ["attestations:read"]);
    const cases = [
      api("/v1/attestations", { key: ro.key, json: { issuer_id: issuerId, payload: { a: 1 } } }),
      api("/v1/issuers", { key: ro.key, json: { name: "x", domain: "x.example.org" } }),
      api("/v1/issuers", { key: ro.key }),
      api(`/v1/issuers/${issuerId}/keys`, { key: ro.key, method: "POST" }),
      api("/v1/api-keys", { key: ro.key }),
      api("/v1/api-keys", { key: ro.key, json: { name: "x", scopes: ["attestations:read"] } }),
      api(`/v1/api-keys/${ro.id}/revoke`, { key: ro.key, method: "POST" }),
    ];
    for (const res of await Promise.all(cases)) expectProblem(res, 403, "insufficient_scope");
    const made = await api("/v1/attestations", { key: admin, json: { issuer_id: issuerId, payload: { a: 1 } } });
    expect((await api(`/v1/attestations/${made.body.id}`, { key: ro.key })).status).toBe(200);
    expect((await api("/v1/issuers", { key: admin })).body.items.filter((i: { domain: string }) => i.domain === "x.example.org")).toEqual(
      [],
    );
  });

  it("cannot grant scopes it lacks when creating a key", async () => {
    const manager = await createKey(admin, ["api_keys:read", "api_keys:write", "attestations:read"]);
    const escalate = await api("/v1/api-keys", { key: manager.key, json: { name: "x", scopes: ["attestations:read", "issuers:write"] } });
    expectProblem(escalate, 403, "insufficient_scope");
    expect(escalate.body.detail).toContain("issuers:write");
    const subset = await createKey(manager.key, ["attestations:read"]);
    expect(subset.scopes).toEqual(["attestations:read"]);
    expectProblem(await api("/v1/api-keys", { key: manager.key, json: { name: "x", scopes: ["admin"] } }), 422, "validation_failed");
  });

  it("rejects a missing key with 401 unauthenticated and a bad one with 401 invalid_api_key", async () => {
    for (const path of ["/v1/api-keys", "/v1/issuers", `/v1/attestations/${randomUUID()}`]) {
      expectProblem(await api(path), 401, "unauthenticated");
      expectProblem(await api(path, { headers: { "x-api-key": "" } }), 401, "unauthenticated");
    }
    expectProblem(await api("/v1/attestations", { json: { issuer_id: randomUUID(), payload: {} } }), 401, "unauthenticated");
    const tampered = admin.slice(0, -7) + (admin.at(-7) === "a" ? "b" : "a") + admin.slice(-6);
    for (const bad of ["garbage", "hm_live_", wellFormedUnknownKey(), tampered, admin.toUpperCase(), admin + "x"]) {
      expectProblem(await api("/v1/api-keys", { key: bad }), 401, "invalid_api_key");
      expectProblem(await api("/v1/log", { key: bad }), 401, "invalid_api_key");
    }
    expect((await api("/v1/api-keys", { key: admin })).status).toBe(200);
  });
});
