// @hallmark-test db=sqlite,postgres lane=main
// Consumers (personal tenants) manage API keys for their own account through /v1/api-keys;
// those keys hold consumer scopes only and never reach an organisation's endpoints.
import { beforeAll, describe, expect, it } from "vitest";
import { CONSUMER_SCOPES } from "@/server/domain/accounts";
import { api, createIssuer, createKey, expectProblem, organisationRequests } from "./helpers";
import { seedConsumer, seedOrg, type SeededConsumer } from "../accounts";

describe("consumer API keys", () => {
  let consumer: SeededConsumer;
  beforeAll(async () => {
    consumer = await seedConsumer();
  });

  it("lists the consumer's own key, holding exactly the consumer scopes", async () => {
    const res = await api("/v1/api-keys", { key: consumer.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(consumer.apiKey.startsWith(res.body[0].prefix)).toBe(true);
    expect([...res.body[0].scopes].sort()).toEqual([...CONSUMER_SCOPES].sort());
    expect(res.body[0].status).toBe("ACTIVE");
    expect(res.text).not.toContain(consumer.apiKey);
  });

  it("creates, lists and revokes a key for the consumer's own account", async () => {
    const made = await createKey(consumer.apiKey, ["protections:read"], { name: "read only" });
    expect(made).toMatchObject({ scopes: ["protections:read"], status: "ACTIVE" });
    const list = await api("/v1/api-keys", { key: consumer.apiKey });
    expect(list.body.map((k: { id: string }) => k.id)).toContain(made.id);
    // The narrower key cannot manage keys.
    expectProblem(await api("/v1/api-keys", { key: made.key }), 403, "insufficient_scope");
    const revoked = await api(`/v1/api-keys/${made.id}/revoke`, { key: consumer.apiKey, method: "POST" });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toEqual({ id: made.id, status: "REVOKED" });
    expectProblem(await api("/v1/api-keys", { key: made.key }), 401, "invalid_api_key");
  });

  it("refuses any scope outside the consumer scopes with 403 insufficient_scope, and creates nothing", async () => {
    const before = (await api("/v1/api-keys", { key: consumer.apiKey })).body.length;
    for (const scopes of [["attestations:read"], ["protections:read", "issuers:write"], ["attestations:write"], ["issuers:read"]]) {
      const res = await api("/v1/api-keys", { key: consumer.apiKey, json: { name: "escalate", scopes } });
      expectProblem(res, 403, "insufficient_scope");
    }
    expect((await api("/v1/api-keys", { key: consumer.apiKey })).body.length).toBe(before);
  });

  it("an organisation key cannot grant consumer scopes", async () => {
    const admin = (await seedOrg()).apiKey;
    const res = await api("/v1/api-keys", { key: admin, json: { name: "x", scopes: ["protections:write"] } });
    expectProblem(res, 403, "insufficient_scope");
  });

  it("a consumer key gets 403 on every organisation endpoint, and 404 for an organisation's attestation", async () => {
    const k = consumer.apiKey;
    const org = (await seedOrg()).apiKey;
    const issuerId = (await createIssuer(org)).id;
    const orgAttestation = (await api("/v1/attestations", { key: org, json: { issuer_id: issuerId, payload: { a: 1 } } })).body.id;
    const answers = await Promise.all(organisationRequests(k, issuerId, orgAttestation));
    // Issuers and attestation writes are organisation features; a consumer reads attestations,
    // but only its own (another tenant's answers exactly like an unknown id).
    for (const res of answers.slice(0, 5)) expectProblem(res, 403, "insufficient_scope");
    for (const res of answers.slice(5)) expectProblem(res, 404, "not_found");
  });

  it("keeps accounts apart: neither side sees or revokes the other's keys", async () => {
    const admin = (await seedOrg()).apiKey;
    const orgKey = await createKey(admin, ["issuers:read"]);
    const mine = await createKey(consumer.apiKey, ["protections:read"]);
    expectProblem(await api(`/v1/api-keys/${orgKey.id}/revoke`, { key: consumer.apiKey, method: "POST" }), 404, "not_found");
    expectProblem(await api(`/v1/api-keys/${mine.id}/revoke`, { key: admin, method: "POST" }), 404, "not_found");
    const theirs = (await api("/v1/api-keys", { key: admin })).body.map((x: { id: string }) => x.id);
    expect(theirs).not.toContain(mine.id);
    const ours = (await api("/v1/api-keys", { key: consumer.apiKey })).body.map((x: { id: string }) => x.id);
    expect(ours).not.toContain(orgKey.id);
  });

  it("limits consumer keys like any other key", async () => {
    const k = await createKey(consumer.apiKey, ["api_keys:read"], { rate_limit_per_minute: 2 });
    expect((await api("/v1/api-keys", { key: k.key })).status).toBe(200);
    expect((await api("/v1/api-keys", { key: k.key })).status).toBe(200);
    expectProblem(await api("/v1/api-keys", { key: k.key }), 429, "rate_limited");
  });
});
