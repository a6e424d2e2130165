import "server-only";
import { logger } from "../observability/logger.mjs";
import { RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../domain/errors";
import { getLimiter } from "./limiter";

/**
 * A public endpoint's budget per client address (the gate's, server/http/client-address.ts):
 * `quota` requests per fixed `window` seconds, shared by every instance through Redis when
 * HALLMARK_REDIS_URL is set. It writes the same draft-ietf-httpapi-ratelimit-headers-10 fields
 * as an API key's limits, named after the policy:
 *
 *   RateLimit-Policy: "lookup";q=120;w=60
 *   RateLimit: "lookup";r=119;t=60
 *
 * Spent: 429 `rate_limited` with Retry-After, before the endpoint reads anything. The store
 * failing with no insurance answering: 503, never an unlimited endpoint.
 */
export async function consumeClientLimit(
  policy: { name: string; quota: number; window: number },
  client: string,
  headers: Record<string, string>,
): Promise<void> {
  const { name, quota, window } = policy;
  headers["ratelimit-policy"] = `"${name}";q=${quota};w=${window}`;
  let res: RateLimiterRes;
  let ok = true;
  try {
    res = await getLimiter(`client-${name}`, quota, window).consume(client, 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) {
      logger.error({ limiter: name, err }, "limiter unavailable");
      throw new AppError("service_unavailable", "Rate limiting is unavailable; try again shortly.", undefined, { "retry-after": "1" });
    }
    res = err;
    ok = false;
  }
  const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  headers["ratelimit"] = `"${name}";r=${Math.max(0, res.remainingPoints)};t=${reset}`;
  if (ok) return;
  headers["retry-after"] = String(reset);
  throw new AppError(
    "rate_limited",
    `This endpoint allows ${quota} requests per ${window} s from one address; retry in ${reset} s.`,
    undefined,
    {
      ...headers,
    },
  );
}
