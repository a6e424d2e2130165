import "server-only";
import { RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";
import { logger } from "../observability/logger.mjs";

/** 429 too_many_attempts: `what` ("failed logins") has spent its budget; retry after `seconds`. */
export function tooManyAttempts(what: string, seconds: number): AppError {
  return new AppError("too_many_attempts", `Too many ${what}; try again in ${seconds} s.`, undefined, { "retry-after": String(seconds) });
}

/**
 * What a password-check budget's consume() threw, as an answer: its budget spent is 429 (until
 * its window moves on), its store failing (Redis and the in-memory insurance both) is 503.
 */
export function attemptRefusal(err: unknown, what: string): AppError {
  if (err instanceof RateLimiterRes) return tooManyAttempts(what, Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
  logger.error({ err, what }, "attempt throttle unavailable");
  return new AppError("service_unavailable", "Checking passwords is unavailable for a moment; try again shortly.", undefined, {
    "retry-after": "1",
  });
}
