import "server-only";
import { LRUCache } from "lru-cache";
import { getStore } from "../../store/index";
import { processWide } from "../../process-wide";
import { AppError, notFound } from "../../errors";

const TTL_MS = 5_000;
/** Bounded in count as well as time: a process serving many issuers keeps only the recent ones. */
const cache = processWide("issuer-cache", () => new LRUCache<string, { tenantId: string; status: string }>({ max: 10_000, ttl: TTL_MS }));

/** Issuers kept, for /metrics. */
export const issuerCacheEntries = () => cache.size;

/** Statuses under which an issuer may sign. PENDING only means its domain is unverified. */
const SIGNING_STATUSES = new Set(["PENDING", "ACTIVE"]);

/**
 * Checks that the issuer belongs to the tenant and may sign, from a few-seconds cache on the
 * hot path (an issuer's tenant never changes; a suspension takes effect within TTL_MS).
 */
export async function getActiveIssuer(tenantId: string, issuerId: string): Promise<void> {
  let hit = cache.get(issuerId);
  if (!hit) {
    const row = await getStore().reads.issuer(issuerId);
    if (!row) throw notFound("Issuer");
    hit = { tenantId: row.tenantId, status: row.status };
    cache.set(issuerId, hit);
  }
  if (hit.tenantId !== tenantId) throw notFound("Issuer");
  if (!SIGNING_STATUSES.has(hit.status)) throw new AppError("issuer_not_active", `The issuer is ${hit.status} and cannot sign.`);
}
