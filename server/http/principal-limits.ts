import "server-only";
import { logger } from "../observability/logger.mjs";
import type { ApiKeyPrincipal } from "../domain/accounts";
import { AppError } from "../errors";
import { accountPlanOf, boundedBudget, PLAN_REQUEST_BUDGETS, type RequestBudget } from "../domain/plans";
import type { SessionPrincipal } from "../domain/accounts";
import { consumeRequestBudget, type KeyLimitResult, mostConstraining, type PolicyState } from "../limits/request-budgets";

/**
 * Enforces a request budget (an API key's, or an account's sessions' together) and writes the
 * rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 (structured fields):
 *
 *   RateLimit-Policy: "minute";q=600;w=60, "day";q=100000;w=86400
 *   RateLimit: "minute";r=599;t=60
 *
 * `RateLimit` names the policy closest to refusing. Over a limit: 429 `rate_limited`
 * (minute) or `daily_quota_exceeded` (UTC day) with Retry-After, before anything else of
 * the request runs. The headers go into `headers`, which the route wrapper sets on every
 * answer, errors included.
 */
async function enforceBudget(
  holder: "key" | "session",
  id: string,
  budget: RequestBudget,
  headers: Record<string, string>,
  words: { allows: string; quota: string },
): Promise<void> {
  let result: KeyLimitResult;
  try {
    result = await consumeRequestBudget(holder, id, budget);
  } catch (err) {
    // Only reachable when the shared store failed and its in-memory insurance did too.
    logger.error({ err }, "rate limiter unavailable");
    throw new AppError("service_unavailable", "Rate limiting is unavailable; try again shortly.", undefined, { "retry-after": "1" });
  }
  headers["ratelimit-policy"] = `"minute";q=${budget.rateLimitPerMinute};w=60, "day";q=${budget.dailyQuota};w=86400`;
  const shown: PolicyState = result.ok ? mostConstraining(result.policies) : result.exceeded;
  headers["ratelimit"] = `"${shown.name}";r=${shown.remaining};t=${shown.reset}`;
  if (result.ok) return;

  const { exceeded } = result;
  headers["retry-after"] = String(exceeded.reset);
  const errorHeaders = { ...headers };
  if (exceeded.name === "minute") {
    throw new AppError(
      "rate_limited",
      `${words.allows} ${exceeded.quota} requests per minute; retry in ${exceeded.reset} s.`,
      undefined,
      errorHeaders,
    );
  }
  throw new AppError(
    "daily_quota_exceeded",
    `${words.quota} of ${exceeded.quota} requests (UTC day) is spent; it resets at the next UTC midnight, in ${exceeded.reset} s.`,
    undefined,
    errorHeaders,
  );
}

/**
 * A key's rate_limit_per_minute and daily_quota, on every request it authenticates, within what
 * its account's plan allows one key (a key stored with more spends only the plan's figures).
 */
export async function enforceKeyLimits(principal: ApiKeyPrincipal, headers: Record<string, string>): Promise<void> {
  const budget = boundedBudget(principal, await accountPlanOf(principal.tenantId));
  await enforceBudget("key", principal.apiKeyId, budget, headers, { allows: "This API key allows", quota: "This API key's daily quota" });
}

/**
 * A session's request: every session of an account (cookie or Bearer, /v1 and the dashboard's
 * tRPC) spends one budget of the account's, the largest its plan allows one key.
 */
export async function enforceSessionLimits(principal: SessionPrincipal, headers: Record<string, string>): Promise<void> {
  const budget = PLAN_REQUEST_BUDGETS[await accountPlanOf(principal.tenantId)];
  await enforceBudget("session", principal.userId, budget, headers, {
    allows: "This account's sessions together allow",
    quota: "The daily quota of this account's sessions",
  });
}
