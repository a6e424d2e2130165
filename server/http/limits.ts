import "server-only";
import { logger } from "../observability/logger.mjs";
import type { ApiKeyPrincipal } from "../domain/api-keys";
import { AppError } from "../domain/errors";
import { consumeKeyLimits, type KeyLimitResult, mostConstraining, type PolicyState } from "../limits/key-limits";

/**
 * Enforces a key's rate_limit_per_minute and daily_quota on a request it authenticates and
 * writes the rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 (structured fields):
 *
 *   RateLimit-Policy: "minute";q=600;w=60, "day";q=100000;w=86400
 *   RateLimit: "minute";r=599;t=60
 *
 * `RateLimit` names the policy closest to refusing. Over a limit: 429 `rate_limited`
 * (minute) or `daily_quota_exceeded` (UTC day) with Retry-After, before anything else of
 * the request runs. The headers go into `headers`, which the route wrapper sets on every
 * answer, errors included.
 */
export async function enforceKeyLimits(principal: ApiKeyPrincipal, headers: Record<string, string>): Promise<void> {
  let result: KeyLimitResult;
  try {
    result = await consumeKeyLimits(principal);
  } catch (err) {
    // Only reachable when the shared store failed and its in-memory insurance did too.
    logger.error({ err }, "rate limiter unavailable");
    throw new AppError("service_unavailable", "Rate limiting is unavailable; try again shortly.", undefined, { "retry-after": "1" });
  }
  const policy = `"minute";q=${principal.rateLimitPerMinute};w=60, "day";q=${principal.dailyQuota};w=86400`;
  headers["ratelimit-policy"] = policy;
  const shown: PolicyState = result.ok ? mostConstraining(result.policies) : result.exceeded;
  headers["ratelimit"] = `"${shown.name}";r=${shown.remaining};t=${shown.reset}`;
  if (result.ok) return;

  const { exceeded } = result;
  headers["retry-after"] = String(exceeded.reset);
  const errorHeaders = { ...headers };
  if (exceeded.name === "minute") {
    throw new AppError(
      "rate_limited",
      `This API key allows ${exceeded.quota} requests per minute; retry in ${exceeded.reset} s.`,
      undefined,
      errorHeaders,
    );
  }
  throw new AppError(
    "daily_quota_exceeded",
    `This API key's daily quota of ${exceeded.quota} requests (UTC day) is spent; it resets at the next UTC midnight, in ${exceeded.reset} s.`,
    undefined,
    errorHeaders,
  );
}
