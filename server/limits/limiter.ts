import "server-only";
import { logger } from "../observability/logger.mjs";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "../config";
import { processWide } from "../process-wide";

/**
 * Fixed-window counters from rate-limiter-flexible: in memory when this instance is alone,
 * in Redis (HALLMARK_REDIS_URL) when several instances share the load, so every instance
 * counts against the same budget.
 *
 * Redis failing: every Redis limiter has an in-memory insurance limiter with the same budget.
 * rate-limiter-flexible uses it when a command fails in flight; and from a connection error
 * until the connection is ready again, calls go to it directly instead of waiting on
 * reconnects. Limits keep holding, per instance, until Redis answers again. A first
 * connection still in progress is waited for, so a fresh instance counts in Redis at once.
 */
export type Limiter = Pick<RateLimiterAbstract, "consume" | "penalty" | "reward" | "get" | "delete">;

/** One per process: counters kept per compiled copy of this module would each hold a budget of their own. */
const state = processWide("limiter", () => ({
  redis: undefined as Redis | undefined,
  redisFailing: false,
  lastComplaint: 0,
  limiters: new Map<string, Limiter>(),
}));

function redisClient(url: string): Redis {
  if (!state.redis) {
    // Auto-pipelining: the commands of one event-loop turn (every request's minute and day
    // budgets, across concurrent requests) go to Redis in one write, not one round trip each.
    const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false, enableAutoPipelining: true });
    client.on("ready", () => {
      state.redisFailing = false;
    });
    client.on("error", (err: Error) => {
      state.redisFailing = true;
      // One line every 30 s at most, instead of ioredis's unhandled-error noise.
      if (Date.now() - state.lastComplaint < 30_000) return;
      state.lastComplaint = Date.now();
      logger.error({ err: err.message }, "Redis unavailable: limits are counted per instance until it is back");
    });
    state.redis = client;
  }
  return state.redis;
}

/** A Redis limiter that turns to its in-memory insurance while the connection is failing. */
function failover(client: Redis, shared: RateLimiterRedis, insurance: RateLimiterMemory): Limiter {
  const pick = (): RateLimiterAbstract => (state.redisFailing && client.status !== "ready" ? insurance : shared);
  return {
    consume: (key, points, options) => pick().consume(key, points, options),
    penalty: (key, points, options) => pick().penalty(key, points, options),
    reward: (key, points, options) => pick().reward(key, points, options),
    get: (key, options): Promise<RateLimiterRes | null> => pick().get(key, options),
    delete: (key, options) => pick().delete(key, options),
  };
}

/** One limiter per (name, points, duration); points per `duration` seconds. */
export function getLimiter(name: string, points: number, duration: number): Limiter {
  const id = `${name}:${points}:${duration}`;
  let limiter = state.limiters.get(id);
  if (!limiter) {
    const { redisUrl, logOrigin } = getConfig();
    const keyPrefix = `hallmark:${logOrigin}:${name}`; // one log, one budget
    if (redisUrl) {
      const client = redisClient(redisUrl);
      const insurance = new RateLimiterMemory({ keyPrefix: `${keyPrefix}:insurance`, points, duration });
      const shared = new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration, insuranceLimiter: insurance });
      limiter = failover(client, shared, insurance);
    } else {
      limiter = new RateLimiterMemory({ keyPrefix, points, duration });
    }
    state.limiters.set(id, limiter);
  }
  return limiter;
}
