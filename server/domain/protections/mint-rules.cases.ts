// A consumer mint's rules, run against each database (mint-rules.test.ts on a SQLite file,
// mint-rules.pg.test.ts on PostgreSQL), through the domain function the REST route and the
// dashboard call: the plan's monthly quota (exactly, under concurrency, and a refused mint writes
// nothing), and Idempotency-Keys (a retry gets the first answer, costs no quota, and a key is one
// tenant's and one body's).
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Plan } from "../plans";

const contentHash = () => randomBytes(32).toString("hex");

/** The cases, on the database the calling file opened (openTestLog) before they run. */
export function mintRuleCases(label: string) {
  describe(`mint rules (${label})`, () => {
    const consumer = async (plan: Plan) => {
      const { createConsumer } = await import("../accounts");
      const c = await createConsumer({
        email: `unit-${randomBytes(6).toString("hex")}@example.org`,
        password: "unit password",
        name: "Unit",
        plan,
        verified: true,
      });
      return { tenantId: c.tenantId, userId: c.userId };
    };
    const mint = async (tenantId: string, body: { content_hash: string; title?: string }, idempotencyKey?: string) => {
      const [{ mintProtection }, { requestHashOf }] = await Promise.all([import("./protections"), import("../idempotency")]);
      return mintProtection({
        tenantId,
        input: { category: "media", visibility: "public", ...body },
        ...(idempotencyKey ? { idempotency: { key: idempotencyKey, requestHash: requestHashOf(body) } } : {}),
      });
    };
    /** What a mint can have written: the tenant's protections, the log's entries, the user's usage. */
    const written = async (tenantId: string, userId: string) => {
      const [{ getDb }, { getUsage }] = await Promise.all([import("../../db"), import("../plans")]);
      const db = getDb().read;
      return {
        protections: await db.protection.count({ where: { tenantId } }),
        entries: await db.attestation.count(),
        used: (await getUsage({ id: userId, plan: "free" })).used,
      };
    };
    const codeOf = async (p: Promise<unknown>) =>
      p.then(
        () => "minted",
        (err: { code?: string }) => err.code ?? String(err),
      );

    it("lets exactly the free plan's 50 mints of a month through, then refuses with Retry-After until the month ends, writing nothing", async () => {
      const { tenantId, userId } = await consumer("free");
      for (let i = 0; i < 50; i++) await mint(tenantId, { content_hash: contentHash() });
      const before = await written(tenantId, userId);
      expect(before).toMatchObject({ protections: 50, used: 50 });
      const refused = await mint(tenantId, { content_hash: contentHash() }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "quota_exceeded" });
      const retryAfter = Number((refused as { headers: Record<string, string> }).headers["Retry-After"]);
      const { secondsToMonthEnd } = await import("../../../lib/testing/calendar");
      const untilMonthEnd = secondsToMonthEnd();
      expect(retryAfter).toBeGreaterThan(0);
      expect(Math.abs(retryAfter - untilMonthEnd)).toBeLessThan(60);
      expect(await written(tenantId, userId)).toEqual(before);
    });

    it("at 49 of 50, lets exactly one of ten concurrent mints through", async () => {
      const { tenantId, userId } = await consumer("free");
      for (let i = 0; i < 49; i++) await mint(tenantId, { content_hash: contentHash() });
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => codeOf(mint(tenantId, { content_hash: contentHash() }))));
      expect(outcomes.filter((o) => o === "minted")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "quota_exceeded")).toHaveLength(9);
      expect(await written(tenantId, userId)).toMatchObject({ protections: 50, used: 50 });
    });

    it("counts each plan against its own limit: the creator plan's 500, the pro plan's none", async () => {
      const { getUsage, MINT_QUOTAS } = await import("../plans");
      expect(MINT_QUOTAS).toEqual({ free: 50, creator: 500, pro: null });
      const creator = await consumer("creator");
      const pro = await consumer("pro");
      await mint(creator.tenantId, { content_hash: contentHash() });
      await mint(pro.tenantId, { content_hash: contentHash() });
      expect(await getUsage({ id: creator.userId, plan: "creator" })).toMatchObject({ used: 1, limit: 500, remaining: 499 });
      expect(await getUsage({ id: pro.userId, plan: "pro" })).toMatchObject({ used: 1, limit: null, remaining: null });
    });

    it("answers a retry with its Idempotency-Key with the first answer, minting once and spending one quota unit", async () => {
      const { tenantId, userId } = await consumer("free");
      const key = randomUUID();
      const body = { content_hash: contentHash(), title: "once" };
      const first = await mint(tenantId, body, key);
      const before = await written(tenantId, userId);
      const again = await mint(tenantId, body, key);
      expect(first.replayed).toBe(false);
      expect(again).toEqual({ protection: first.protection, replayed: true });
      expect(await written(tenantId, userId)).toEqual(before);
      expect(before).toMatchObject({ protections: 1, used: 1 });
    });

    it("mints once for concurrent requests with the same key, each answered with that one protection", async () => {
      const { tenantId, userId } = await consumer("free");
      const key = randomUUID();
      const body = { content_hash: contentHash() };
      const answers = await Promise.all(Array.from({ length: 6 }, () => mint(tenantId, body, key)));
      expect(new Set(answers.map((a) => a.protection.protection_id)).size).toBe(1);
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
      expect(await written(tenantId, userId)).toMatchObject({ protections: 1, used: 1 });
    });

    it("refuses a key reused with another body (idempotency_key_reused) and writes nothing", async () => {
      const { tenantId, userId } = await consumer("free");
      const key = randomUUID();
      await mint(tenantId, { content_hash: contentHash() }, key);
      const before = await written(tenantId, userId);
      expect(await codeOf(mint(tenantId, { content_hash: contentHash() }, key))).toBe("idempotency_key_reused");
      expect(await written(tenantId, userId)).toEqual(before);
    });

    it("keeps a key to its tenant: another account's mint with the same key and body is a mint of its own", async () => {
      const [alice, bob] = [await consumer("free"), await consumer("free")];
      const key = randomUUID();
      const body = { content_hash: contentHash() };
      const a = await mint(alice.tenantId, body, key);
      const b = await mint(bob.tenantId, body, key);
      expect(b.replayed).toBe(false);
      expect(b.protection.protection_id).not.toBe(a.protection.protection_id);
      expect((await written(bob.tenantId, bob.userId)).protections).toBe(1);
    });

    it("refuses a mint over the quota even with a fresh key, and replays a key whose mint came before the quota ran out", async () => {
      const { tenantId } = await consumer("free");
      const early = randomUUID();
      const earlyBody = { content_hash: contentHash() };
      const first = await mint(tenantId, earlyBody, early);
      for (let i = 0; i < 49; i++) await mint(tenantId, { content_hash: contentHash() });
      expect(await codeOf(mint(tenantId, { content_hash: contentHash() }, randomUUID()))).toBe("quota_exceeded");
      expect(await mint(tenantId, earlyBody, early)).toEqual({ protection: first.protection, replayed: true });
    });
  });
}
