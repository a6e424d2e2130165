import "server-only";
import type { Tx } from "../../db";

// What a recovery, a password change and an e-mail change end: sessions and API keys.

/** Inside a write transaction: ends the user's live sessions, all but `keep` (the caller's own). */
export async function endSessions(tx: Tx, userId: string, now: Date, keep?: string | null): Promise<number> {
  const where = { userId, endedAt: null, ...(keep ? { id: { not: keep } } : {}) };
  return (await tx.session.updateMany({ where, data: { endedAt: now } })).count;
}

/**
 * Inside a write transaction, as its first write: takes the tenant's row (its updatedAt: the
 * write is the lock), so that key creations and revocations of one account queue on it
 * (PostgreSQL's row lock; SQLite's one writer) and a revocation cannot miss a key made beside it.
 */
export async function lockKeysOf(tx: Tx, tenantId: string, now: Date): Promise<void> {
  await tx.tenant.update({ where: { id: tenantId }, data: { updatedAt: now } });
}

/** Inside a write transaction: revokes every active API key of a tenant, as POST /v1/api-keys/{id}/revoke does; how many. */
export async function revokeKeys(tx: Tx, tenantId: string, now: Date): Promise<number> {
  await lockKeysOf(tx, tenantId, now);
  return (await tx.apiKey.updateMany({ where: { tenantId, status: "ACTIVE" }, data: { status: "REVOKED", revokedAt: now } })).count;
}
