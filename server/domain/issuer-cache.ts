import "server-only";
import { getStore } from "../store";
import { processWide } from "../process-wide";
import { AppError, notFound } from "./errors";

const TTL_MS = 5_000;
const cache = processWide("issuer-cache", () => new Map<string, { tenantId: string; status: string; until: number }>());

/** Statuses under which an issuer may sign. PENDING only means its domain is unverified. */
const SIGNING_STATUSES = new Set(["PENDING", "ACTIVE"]);

/**
 * Checks that the issuer belongs to the tenant and may sign, from a few-seconds cache on the
 * hot path (an issuer's tenant never changes; a suspension takes effect within TTL_MS).
 */
export async function getActiveIssuer(tenantId: string, issuerId: string): Promise<void> {
  const now = Date.now();
  let hit = cache.get(issuerId);
  if (!hit || hit.until <= now) {
    const row = await getStore().reads.issuer(issuerId);
    if (!row) throw notFound("Issuer");
    hit = { tenantId: row.tenantId, status: row.status, until: now + TTL_MS };
    cache.set(issuerId, hit);
  }
  if (hit.tenantId !== tenantId) throw notFound("Issuer");
  if (!SIGNING_STATUSES.has(hit.status)) throw new AppError("issuer_not_active", `The issuer is ${hit.status} and cannot sign.`);
}
