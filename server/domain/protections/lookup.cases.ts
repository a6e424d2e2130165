// The lookups' rules, run against each database (lookup.test.ts on a SQLite file, lookup.pg.test.ts
// on PostgreSQL). Who protected these bytes: public protections in log order, and nothing of a
// private one, which answers exactly as none. Similar pictures: the per-database query finds
// every public fingerprint within the distance and nothing beyond it, nearest first then
// oldest, with the same privacy; fingerprints too featureless to match are never candidates.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pdqDistance } from "@/lib/fingerprint/pdq";

/** `hash` with the given bits flipped (bit 0 is the first hex digit's high bit). */
function flip(hash: string, bits: number[]): string {
  let n = BigInt(`0x${hash}`);
  for (const b of bits) n ^= 1n << BigInt(255 - b);
  return n.toString(16).padStart(64, "0");
}

/**
 * Bits forming a distance `d` spread as thinly as the pigeonhole principle allows: 2 bits in as
 * many of the 16 windows as it takes, so no window is within one bit unless d ≤ 31.
 */
function spread(d: number): number[] {
  const bits: number[] = [];
  for (let w = 0; bits.length < d; w = (w + 1) % 16) {
    const taken = bits.filter((b) => Math.floor(b / 16) === w).length;
    bits.push(w * 16 + taken);
  }
  return bits;
}

/** The cases, on the database the calling file opened (openTestLog) before they run. */
export function lookupCases(label: string) {
  describe(`lookups (${label})`, () => {
    const mint = async (
      tenantId: string,
      hash: string,
      opts: { visibility?: "public" | "private"; quality?: number; contentHash?: string } = {},
    ) => {
      const { mintProtection } = await import("./protections");
      const r = await mintProtection({
        tenantId,
        input: {
          content_hash: opts.contentHash ?? randomBytes(32).toString("hex"),
          title: "unit",
          category: "media",
          visibility: opts.visibility ?? "public",
          fingerprints: [{ alg: "pdq", hash, quality: opts.quality ?? 90 }],
        },
      });
      return r.protection.protection_id;
    };
    const consumer = async () => {
      const { createConsumer } = await import("../accounts");
      const c = await createConsumer({
        email: `unit-${randomBytes(6).toString("hex")}@example.org`,
        password: "unit password",
        name: "Unit",
        plan: "pro",
        verified: true,
      });
      return c.tenantId;
    };
    const lookup = async (pdq: string, maxDistance = 31, limit = 100, offset = 0) => {
      const { lookupSimilar } = await import("./similar-lookup");
      return lookupSimilar({ pdq, maxDistance, limit, offset });
    };

    it("by content hash: public protections in log order with their creator, nothing of a private one", async () => {
      const { lookupContentHash } = await import("./lookup");
      const [alice, bob] = [await consumer(), await consumer()];
      const contentHash = randomBytes(32).toString("hex");
      const privateFirst = await mint(alice, randomBytes(32).toString("hex"), { visibility: "private", contentHash });
      const first = await mint(bob, randomBytes(32).toString("hex"), { contentHash });
      const second = await mint(alice, randomBytes(32).toString("hex"), { contentHash });
      const r = await lookupContentHash({ contentHash, limit: 100, offset: 0 });
      expect(r.items.map((i) => i.protection_id)).toEqual([first, second]);
      expect(r.items[0]!.log_index).toBeLessThan(r.items[1]!.log_index);
      expect(r.total).toBe(2);
      // The earliest protection is the private one: the answer says the first public one's time.
      expect(r.first_protected_at).toBe(r.items[0]!.protected_at);
      expect(JSON.stringify(r)).not.toContain(privateFirst);
      expect(Object.keys(r).sort()).toEqual(["content_hash", "first_protected_at", "items", "total"]);
      expect((await lookupContentHash({ contentHash, limit: 1, offset: 1 })).items.map((i) => i.protection_id)).toEqual([second]);
      const none = await lookupContentHash({ contentHash: randomBytes(32).toString("hex"), limit: 100, offset: 0 });
      expect(none).toEqual({ content_hash: none.content_hash, items: [], total: 0, first_protected_at: null });
      // Bytes only a private protection holds answer exactly as bytes no one holds.
      const privateOnly = randomBytes(32).toString("hex");
      await mint(alice, randomBytes(32).toString("hex"), { visibility: "private", contentHash: privateOnly });
      const hidden = await lookupContentHash({ contentHash: privateOnly, limit: 100, offset: 0 });
      expect(hidden).toEqual({ ...none, content_hash: privateOnly });
    });

    it("similar pictures: within the distance, nearest first then oldest, nothing of a private one", async () => {
      const tenant = await consumer();
      const base = randomBytes(32).toString("hex");
      const far = await mint(tenant, flip(base, spread(40)));
      const at7 = await mint(tenant, flip(base, spread(7)));
      const at3 = await mint(tenant, flip(base, spread(3)));
      const at7later = await mint(
        tenant,
        flip(
          base,
          spread(7).map((b) => (b + 8) % 256),
        ),
      );
      const privateAt1 = await mint(tenant, flip(base, [9]), { visibility: "private" });
      const r = await lookup(base);
      expect(r.items.map((i) => [i.protection_id, i.distance])).toEqual([
        [at3, 3],
        [at7, 7],
        [at7later, 7],
      ]);
      expect(r.total).toBe(3);
      expect(r.first_protected_at).toBe(r.items.map((i) => i.protected_at).sort()[0]);
      expect(Object.keys(r).sort()).toEqual(["first_protected_at", "items", "max_distance", "pdq", "total"]);
      expect(JSON.stringify(r)).not.toContain(privateAt1);
      expect(JSON.stringify(r)).not.toContain(far);
      // Paging keeps the order.
      expect((await lookup(base, 31, 1, 1)).items.map((i) => i.protection_id)).toEqual([at7]);
      // A smaller distance cuts.
      expect((await lookup(base, 5)).items.map((i) => i.protection_id)).toEqual([at3]);
    });

    it("finds a distance of 31 spread across every window, and not 32", async () => {
      const tenant = await consumer();
      const base = randomBytes(32).toString("hex");
      const thin31 = flip(base, spread(31));
      const thin32 = flip(base, spread(32));
      expect([pdqDistance(base, thin31), pdqDistance(base, thin32)]).toEqual([31, 32]);
      const found = await mint(tenant, thin31);
      await mint(tenant, thin32);
      const r = await lookup(base);
      expect(r.items.map((i) => [i.protection_id, i.distance])).toEqual([[found, 31]]);
    });

    it("never matches a fingerprint of quality 49 or less, even at distance 0", async () => {
      const tenant = await consumer();
      const hash = randomBytes(32).toString("hex");
      await mint(tenant, hash, { quality: 49 });
      const matched = await mint(tenant, flip(hash, [100]), { quality: 50 });
      const r = await lookup(hash);
      expect(r.items.map((i) => i.protection_id)).toEqual([matched]);
    });

    it("a private picture answers as none at every distance, and follows its protection's visibility", async () => {
      const { setProtectionVisibility } = await import("./protection-list");
      const tenant = await consumer();
      const base = randomBytes(32).toString("hex");
      const id = await mint(tenant, base, { visibility: "private" });
      const empty = (pdq: string, d: number) => ({ pdq, max_distance: d, first_protected_at: null, items: [], total: 0 });
      for (const [pdq, d] of [
        [base, 0],
        [flip(base, spread(5)), 31],
        [flip(base, spread(20)), 20],
        [flip(base, spread(31)), 31],
      ] as const)
        expect(await lookup(pdq, d)).toEqual(empty(pdq, d));
      // Made public, it is found; made private again, it is gone.
      await setProtectionVisibility({ tenantId: tenant, id, visibility: "public" });
      expect((await lookup(flip(base, spread(5)))).items.map((i) => [i.protection_id, i.distance])).toEqual([[id, 5]]);
      await setProtectionVisibility({ tenantId: tenant, id, visibility: "private" });
      expect(await lookup(base, 0)).toEqual(empty(base, 0));
    });

    it("answers every protection of the same picture, and nothing for a hash no one holds", async () => {
      const tenant = await consumer();
      const hash = randomBytes(32).toString("hex");
      const first = await mint(tenant, hash);
      const second = await mint(tenant, hash);
      const r = await lookup(hash);
      expect(r.items.map((i) => [i.protection_id, i.distance])).toEqual([
        [first, 0],
        [second, 0],
      ]);
      const none = await lookup(randomBytes(32).toString("hex"));
      expect(none.items).toEqual([]);
      expect(none.first_protected_at).toBeNull();
    });
  });
}
