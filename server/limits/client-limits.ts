import "server-only";
import { logger } from "../observability/logger.mjs";
import { RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";
import { throttleBucket } from "./client-bucket";
import { getLimiter } from "./limiter";

/** An endpoint's budget: `quota` requests per fixed `window` seconds, per client address and per account. */
export interface EndpointBudget {
  name: string;
  quota: number;
  window: number;
}

type Taken = { ok: boolean; res: RateLimiterRes };

async function take(limiter: string, quota: number, window: number, id: string): Promise<Taken> {
  try {
    return { ok: true, res: await getLimiter(limiter, quota, window).consume(id, 1) };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { ok: false, res: err };
    logger.error({ limiter, err }, "limiter unavailable");
    throw new AppError("service_unavailable", "Rate limiting is unavailable; try again shortly.", undefined, { "retry-after": "1" });
  }
}

/** Adds an item to a structured-field list header (a key's own policies may be there already). */
function append(headers: Record<string, string>, name: string, item: string): void {
  headers[name] = headers[name] ? `${headers[name]}, ${item}` : item;
}

/**
 * An expensive endpoint's budgets (a lookup, a certificate, an export), spent before it reads
 * anything: one per client address (the gate's, server/auth/request-address.ts), whoever asks,
 * and, for a caller with a key or a session, one per account (every key and session of the
 * tenant together), so neither many addresses nor many keys multiply it. An API key's own
 * budgets are spent as well (server/http/principal-limits.ts). Shared by every instance through Redis
 * when HALLMARK_REDIS_URL is set. The RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10)
 * name the policy after the endpoint, with "-account" for the account's, appended to the key's:
 *
 *   RateLimit-Policy: "lookup";q=120;w=60, "lookup-account";q=120;w=60
 *   RateLimit: "lookup";r=119;t=60, "lookup-account";r=119;t=60
 *
 * Spent: 429 `rate_limited` with Retry-After; a request refused for its account gives its
 * address's unit back. The store failing with no insurance answering: 503, never an unlimited
 * endpoint.
 */
export async function consumeEndpointLimits(
  policy: EndpointBudget,
  caller: { client: string; tenantId: string | null },
  headers: Record<string, string>,
): Promise<void> {
  const { name, quota, window } = policy;
  const budgets: { label: string; limiter: string; id: string; whose: string }[] = [
    { label: name, limiter: `client-${name}`, id: throttleBucket(caller.client), whose: "from one address" },
  ];
  if (caller.tenantId !== null) {
    budgets.push({ label: `${name}-account`, limiter: `account-${name}`, id: caller.tenantId, whose: "for one account" });
  }
  for (const b of budgets) append(headers, "ratelimit-policy", `"${b.label}";q=${quota};w=${window}`);
  for (let i = 0; i < budgets.length; i++) {
    const b = budgets[i]!;
    const { ok, res } = await take(b.limiter, quota, window, b.id);
    const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    append(headers, "ratelimit", `"${b.label}";r=${Math.max(0, res.remainingPoints)};t=${reset}`);
    if (ok) continue;
    // Best effort: a store failing here leaves the unit spent, which refuses nothing wrongly.
    for (const earlier of budgets.slice(0, i))
      await getLimiter(earlier.limiter, quota, window)
        .reward(earlier.id, 1)
        .catch(() => {});
    headers["retry-after"] = String(reset);
    throw new AppError(
      "rate_limited",
      `This endpoint allows ${quota} requests per ${window} s ${b.whose}; retry in ${reset} s.`,
      undefined,
      { ...headers },
    );
  }
}

/** An endpoint's budget per client address alone, whoever asks (the account flows that send mail). */
export function consumeClientLimit(policy: EndpointBudget, client: string, headers: Record<string, string>): Promise<void> {
  return consumeEndpointLimits(policy, { client, tenantId: null }, headers);
}
