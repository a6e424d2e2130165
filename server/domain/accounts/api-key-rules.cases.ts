// API keys' rules, run against each database (api-key-rules.test.ts on a SQLite file,
// api-key-rules.pg.test.ts on PostgreSQL), through the domain functions the REST routes, the
// dashboard and the console call: what a tenant's keys may hold, the plan's bounds on keys
// (under concurrency too), that a secret is shown once and stored only as its hash, and that a
// revocation takes effect on the next request and is one tenant's to make.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Scope } from "@/lib/scopes";

/** The cases, on the database the calling file opened (openTestLog) before they run. */
export function apiKeyRuleCases(label: string, log: () => { tenantId: string }) {
  describe(`API key rules (${label})`, () => {
    const consumer = async () => {
      const { createConsumer } = await import("./consumers");
      return (
        await createConsumer({
          email: `unit-${randomBytes(6).toString("hex")}@example.org`,
          password: "unit password",
          name: "Unit",
          plan: "free",
          verified: true,
        })
      ).tenantId;
    };
    const keys = () => import("./api-keys");
    const codeOf = async (p: Promise<unknown>) =>
      p.then(
        () => "created",
        (err: { code?: string }) => err.code ?? String(err),
      );

    it("gives a consumer's keys the consumer scopes and an organisation's every other one", async () => {
      const { scopesForTenant } = await keys();
      const { CONSUMER_SCOPES, ORGANIZATION_SCOPES, SCOPES } = await import("@/lib/scopes");
      expect(await scopesForTenant(await consumer())).toEqual(CONSUMER_SCOPES);
      expect(await scopesForTenant(log().tenantId)).toEqual(ORGANIZATION_SCOPES);
      expect(ORGANIZATION_SCOPES.filter((s) => s.startsWith("protections:"))).toEqual([]);
      expect([...CONSUMER_SCOPES].sort()).toEqual(["api_keys:read", "api_keys:write", "protections:read", "protections:write"]);
      expect(new Set([...ORGANIZATION_SCOPES, ...CONSUMER_SCOPES])).toEqual(new Set(SCOPES));
      await expect(scopesForTenant("00000000-0000-7000-8000-000000000000")).rejects.toMatchObject({ code: "not_found" });
    });

    it("shows a secret once and stores only its hash; the key authenticates with its scopes until revoked", async () => {
      const { createApiKey, authenticateApiKey, revokeApiKey } = await keys();
      const { getDb } = await import("../../db");
      const tenantId = await consumer();
      const scopes: Scope[] = ["protections:read"];
      const { key, secret } = await createApiKey({ tenantId, name: "reader", scopes });
      const row = await getDb().read.apiKey.findUniqueOrThrow({ where: { id: key.id } });
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(JSON.stringify(key)).not.toContain(secret);
      const principal = await authenticateApiKey(secret);
      expect(principal).toMatchObject({ kind: "api_key", tenantId, apiKeyId: key.id });
      expect([...principal.scopes]).toEqual(scopes);
      await revokeApiKey({ tenantId, id: key.id });
      await expect(authenticateApiKey(secret)).rejects.toMatchObject({ code: "invalid_api_key" });
      // Revoking again answers the same; another tenant cannot revoke (or learn of) the key.
      expect(await revokeApiKey({ tenantId, id: key.id })).toEqual({ id: key.id, status: "REVOKED" });
      const other = await createApiKey({ tenantId, name: "other", scopes });
      await expect(revokeApiKey({ tenantId: await consumer(), id: other.key.id })).rejects.toMatchObject({ code: "not_found" });
      expect((await authenticateApiKey(other.secret)).apiKeyId).toBe(other.key.id);
    });

    it("refuses a malformed, a tampered and an unknown key alike", async () => {
      const { createApiKey, authenticateApiKey } = await keys();
      const { secret } = await createApiKey({ tenantId: await consumer(), name: "k", scopes: ["protections:read"] });
      const tampered = secret.slice(0, -1) + (secret.endsWith("a") ? "b" : "a");
      for (const bad of ["", "garbage", secret.toUpperCase(), `${secret}x`, tampered, `hm_live_${"a".repeat(38)}`]) {
        await expect(authenticateApiKey(bad), bad).rejects.toMatchObject({ code: "invalid_api_key" });
      }
    });

    it("holds a plan's bound on active keys, and twice that created in a day, revoked ones counted", async () => {
      const { createBoundedApiKey, revokeApiKey } = await keys();
      const tenantId = await consumer();
      const make = () => createBoundedApiKey({ tenantId, name: "k", scopes: ["protections:read"] }, 2);
      const [a] = [await make(), await make()];
      expect(await codeOf(make())).toBe("too_many_keys");
      await revokeApiKey({ tenantId, id: a.key.id });
      // One active now: two more can be made (four created in the day), then the day's bound holds.
      const c = await make();
      await revokeApiKey({ tenantId, id: c.key.id });
      await make();
      expect(await codeOf(make())).toBe("too_many_keys");
      const { getDb } = await import("../../db");
      expect(await getDb().read.apiKey.count({ where: { tenantId } })).toBe(4);
    });

    it("lets no two concurrent creations pass the bound together", async () => {
      const { createBoundedApiKey } = await keys();
      const tenantId = await consumer();
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => codeOf(createBoundedApiKey({ tenantId, name: "k", scopes: ["protections:read"] }, 3))),
      );
      expect(outcomes.filter((o) => o === "created")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "too_many_keys")).toHaveLength(5);
    });

    it("refuses a key to a creator that ended before its transaction: an ended session, a revoked key", async () => {
      const { createBoundedApiKey, createApiKey, revokeApiKey } = await keys();
      const { getDb } = await import("../../db");
      const { createSession } = await import("../../auth/sessions");
      const tenantId = await consumer();
      const user = await getDb().read.user.findFirstOrThrow({ where: { tenantId }, select: { id: true, email: true, name: true } });
      const { sid } = await createSession(user, { userAgent: null, clientAddress: "198.51.100.9" });
      const make = (creator: { sessionId: string } | { apiKeyId: string }) =>
        codeOf(createBoundedApiKey({ tenantId, name: "k", scopes: ["protections:read"] }, 10, creator));
      expect(await make({ sessionId: sid })).toBe("created");
      // A reset ends the session (and takes the tenant's lock, as creation does) before the creation's transaction.
      await getDb().write((tx) => tx.session.update({ where: { id: sid }, data: { endedAt: new Date() } }));
      expect(await make({ sessionId: sid })).toBe("invalid_session");
      const maker = await createApiKey({ tenantId, name: "maker", scopes: ["api_keys:write"] });
      expect(await make({ apiKeyId: maker.key.id })).toBe("created");
      await revokeApiKey({ tenantId, id: maker.key.id });
      expect(await make({ apiKeyId: maker.key.id })).toBe("invalid_api_key");
      expect(await getDb().read.apiKey.count({ where: { tenantId, name: "k" } })).toBe(2);
    });
  });
}
