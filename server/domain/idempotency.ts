import "server-only";
import { sha256Hex } from "../crypto/hash";
import { canonicalJson } from "@/lib/verify";
import { getDb, type Tx, isUniqueViolation } from "../db";
import { AppError } from "./errors";

/** A claim whose request has not finished after this long is taken to be abandoned (a crash). */
const CLAIM_STALE_MS = 60_000;
/** A finished answer is replayed for this long; afterwards the key may be used afresh. */
const RECORD_TTL_MS = 24 * 3600 * 1000;
/** status of a claimed record whose request is still running. */
const IN_FLIGHT = 0;

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header value, or null when none was sent; 400 when malformed. */
export function parseIdempotencyKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!KEY_SHAPE.test(value)) {
    throw new AppError("invalid_parameter", "The Idempotency-Key header must be 1 to 255 printable ASCII characters.");
  }
  return value;
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the request body. */
export const requestHashOf = (body: unknown): string =>
  sha256Hex(canonicalJson(body ?? null));

export type Claim = { kind: "claimed"; claimedAt: Date } | { kind: "replay"; status: number; body: unknown };

/**
 * Claims (tenant, key) for this request by inserting its record first: the primary key makes
 * concurrent retries serialise, so exactly one runs. A later request with the same key gets the
 * stored answer (same body) or 422 idempotency_key_reused (different body); while the first is
 * still running, 409 conflict with Retry-After: 1.
 */
export async function claimIdempotencyKey(tenantId: string, key: string, requestHash: string): Promise<Claim> {
  const db = getDb();
  for (let attempt = 0; attempt < 5; attempt++) {
    const claimedAt = new Date();
    try {
      await db.write((tx) =>
        tx.idempotencyRecord.create({ data: { tenantId, key, requestHash, status: IN_FLIGHT, response: "", createdAt: claimedAt } }),
      );
      return { kind: "claimed", claimedAt };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const row = await db.read.idempotencyRecord.findUnique({ where: { tenantId_key: { tenantId, key } } });
    if (!row) continue; // released meanwhile: claim again
    const age = Date.now() - row.createdAt.getTime();
    if (age > RECORD_TTL_MS || (row.status === IN_FLIGHT && age > CLAIM_STALE_MS)) {
      const taken = await db.write((tx) =>
        tx.idempotencyRecord.updateMany({
          where: { tenantId, key, status: row.status, createdAt: row.createdAt },
          data: { requestHash, status: IN_FLIGHT, response: "", createdAt: claimedAt },
        }),
      );
      if (taken.count === 1) return { kind: "claimed", claimedAt };
      continue;
    }
    if (row.requestHash !== requestHash) {
      throw new AppError("idempotency_key_reused", "This Idempotency-Key was already used with a different request body.");
    }
    if (row.status === IN_FLIGHT) {
      throw new AppError("conflict", "A request with this Idempotency-Key is still in progress; retry shortly.", undefined, {
        "Retry-After": "1",
      });
    }
    return { kind: "replay", status: row.status, body: JSON.parse(row.response) };
  }
  throw new AppError("conflict", "A request with this Idempotency-Key is still in progress; retry shortly.", undefined, { "Retry-After": "1" });
}

/** Stores the answer inside the transaction that commits the request's effect. */
export async function completeIdempotencyKey(tx: Tx, tenantId: string, key: string, status: number, body: unknown): Promise<void> {
  await tx.idempotencyRecord.update({
    where: { tenantId_key: { tenantId, key } },
    data: { status, response: JSON.stringify(body) },
  });
}

/** Drops this request's claim after a failure, so a retry runs afresh (failures are not replayed). */
export async function releaseIdempotencyKey(tenantId: string, key: string, claimedAt: Date): Promise<void> {
  await getDb().write((tx) => tx.idempotencyRecord.deleteMany({ where: { tenantId, key, status: IN_FLIGHT, createdAt: claimedAt } }));
}
