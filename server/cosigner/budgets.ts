import "server-only";
import { RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "../config";
import { AppError } from "../errors";
import { throttleBucket } from "../limits/client-bucket";
import { getLimiter, type Limiter } from "../limits/limiter";
import { logger } from "../observability/logger.mjs";

/**
 * add-checkpoint's two budgets, counted like every other budget (server/limits: in memory, or in
 * Redis shared by the instances):
 *
 * - per client address, the requests that fail (400, 403, 404, 422): a unit is taken before any
 *   work and given back when the answer is 200 or 409, so however many arrive at once, at most
 *   HALLMARK_WITNESS_FAILURES failing ones are worked on per address and minute;
 * - per log (its origin), the requests that move the witness's record of it to a new checkpoint,
 *   `qpd` of them per day as the log list says: a daily budget a log may spend in bursts, not a
 *   per-second pace, since logs behind one bastion share an address and a log catching up sends
 *   several at once. It is taken after the log's signature and the consistency proof verified and
 *   before the signing and the write. Only the log's key can make such a request; a replay of a
 *   published checkpoint (cosigned anew at most once a second) or a 409 spends none of it, so a
 *   replayer cannot exhaust a log's day.
 *
 * Spent: 429 `rate_limited` with Retry-After. The store failing: 503, never an unlimited endpoint.
 */
const FAILURE_WINDOW_SECONDS = 60;
const DAY_SECONDS = 86_400;

/** The answers that spend the address's failure budget: the caller's mistakes. */
export const FAILED_STATUSES: ReadonlySet<number> = new Set([400, 403, 404, 422]);

async function consume(limiter: Limiter, id: string, refusal: (seconds: number) => AppError): Promise<void> {
  try {
    await limiter.consume(id, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw refusal(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    logger.error({ err, limiter: "witness" }, "limiter unavailable");
    throw new AppError("service_unavailable", "Rate limiting is unavailable; try again shortly.", undefined, { "retry-after": "1" });
  }
}

const limited = (detail: string, seconds: number) =>
  new AppError("rate_limited", `${detail}; retry in ${seconds} s.`, undefined, { "retry-after": String(seconds) });

/**
 * Takes one unit of the client address's failure budget, or throws 429; answers the function that
 * gives it back (for an answer that is not a failure).
 */
export async function reserveFailure(client: string): Promise<() => Promise<void>> {
  const quota = getConfig().witnessFailuresPerMinute;
  const limiter = getLimiter("witness-failures", quota, FAILURE_WINDOW_SECONDS);
  const id = throttleBucket(client);
  await consume(limiter, id, (s) => limited(`add-checkpoint allows ${quota} failed requests per minute from one address`, s));
  return async () => {
    // Best effort: a store failing here leaves the unit spent, which refuses nothing wrongly.
    await limiter.reward(id, 1).catch(() => {});
  };
}

/** Takes one of the log's `qpd` requests of the day, or throws 429. */
export async function spendLogRequest(origin: string, qpd: number): Promise<void> {
  await consume(getLimiter("witness-log", qpd, DAY_SECONDS), origin, (s) =>
    limited(`This witness takes ${qpd} add-checkpoint requests a day for this log (its qpd)`, s),
  );
}
