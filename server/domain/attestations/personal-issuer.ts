import "server-only";
import { LRUCache } from "lru-cache";
import { getDb, isUniqueViolation } from "../../db";
import { insertIssuerWithKey } from "./issuers";
import { processWide } from "../../process-wide";

/**
 * Every personal issuer's name. Not the account's: the issuer is in the public proof bundle and
 * on the verify page of every protection, private ones too, which must not name their creator.
 */
export const PERSONAL_ISSUER_NAME = "Hallmark personal issuer";

/** tenant id → its personal issuer's id. Never changes once made, so it needs no expiry; bounded to the recent tenants. */
const known = processWide("personal-issuers", () => new LRUCache<string, string>({ max: 50_000 }));

/** Personal issuers kept, for /metrics. */
export const personalIssuerCacheEntries = () => known.size;

/**
 * The consumer's personal issuer, made with its signing key on the first mint. Issuer.personalFor
 * is unique, so when first mints race, one transaction creates it and the others fail on the
 * constraint (PostgreSQL: after waiting for the winner's commit) and read the winner's row.
 */
export async function ensurePersonalIssuer(tenantId: string): Promise<string> {
  const cached = known.get(tenantId);
  if (cached) return cached;
  const db = getDb();
  let id = (await db.read.issuer.findUnique({ where: { personalFor: tenantId }, select: { id: true } }))?.id;
  if (!id) {
    try {
      id = await db.write(async (tx) => {
        const existing = await tx.issuer.findUnique({ where: { personalFor: tenantId }, select: { id: true } });
        if (existing) return existing.id;
        // A personal issuer has no domain to verify; it signs for its one account.
        const { issuer } = await insertIssuerWithKey(tx, {
          tenantId,
          name: PERSONAL_ISSUER_NAME,
          domain: "",
          status: "ACTIVE",
          personalFor: tenantId,
        });
        return issuer.id;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      id = (await db.read.issuer.findUnique({ where: { personalFor: tenantId }, select: { id: true } }))?.id;
      if (!id) throw err;
    }
  }
  known.set(tenantId, id);
  return id;
}
