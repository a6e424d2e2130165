import "server-only";
import { getDb } from "../db";
import { newId } from "./ids";
import { insertSigningKey } from "./signing-keys";

/** tenant id → its personal issuer's id. Never changes once made, so it is cached for good. */
const known = new Map<string, string>();

const isUniqueViolation = (err: unknown): boolean => (err as { code?: string })?.code === "P2002";

/**
 * The consumer's personal issuer, made with its signing key on the first mint. Issuer.personalFor
 * is unique, so when first mints race, one transaction creates it and the others fail on the
 * constraint (PostgreSQL: after waiting for the winner's commit) and read the winner's row.
 */
export async function ensurePersonalIssuer(tenantId: string, name: string): Promise<string> {
  const cached = known.get(tenantId);
  if (cached) return cached;
  const db = getDb();
  let id = (await db.read.issuer.findUnique({ where: { personalFor: tenantId }, select: { id: true } }))?.id;
  if (!id) {
    try {
      id = await db.write(async (tx) => {
        const existing = await tx.issuer.findUnique({ where: { personalFor: tenantId }, select: { id: true } });
        if (existing) return existing.id;
        const now = new Date();
        const issuer = await tx.issuer.create({
          data: {
            id: newId(),
            tenantId,
            name: name.slice(0, 200),
            domain: "",
            // A personal issuer has no domain to verify; it signs for its one account.
            status: "ACTIVE",
            trustLevel: "BASIC",
            personalFor: tenantId,
            createdAt: now,
            updatedAt: now,
          },
        });
        await insertSigningKey(tx, issuer.id, now);
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
