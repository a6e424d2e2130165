import "server-only";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig } from "../config";

/**
 * Fixed-window counters from rate-limiter-flexible: in memory when this instance is alone,
 * in Redis (HALLMARK_REDIS_URL) when several instances share the load, so every instance
 * counts against the same budget.
 */
let redis: Redis | undefined;
const limiters = new Map<string, RateLimiterAbstract>();

function redisClient(url: string): Redis {
  redis ??= new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
  return redis;
}

/** One limiter per (name, points, duration); points per `duration` seconds. */
export function getLimiter(name: string, points: number, duration: number): RateLimiterAbstract {
  const id = `${name}:${points}:${duration}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    const { redisUrl, logOrigin } = getConfig();
    const keyPrefix = `hallmark:${logOrigin}:${name}`; // one log, one budget
    limiter = redisUrl
      ? new RateLimiterRedis({ storeClient: redisClient(redisUrl), keyPrefix, points, duration })
      : new RateLimiterMemory({ keyPrefix, points, duration });
    limiters.set(id, limiter);
  }
  return limiter;
}
