import "server-only";
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getLimiter } from "./limiter";

/**
 * The two budgets of an API key, counted with rate-limiter-flexible (in Redis when
 * HALLMARK_REDIS_URL is set, so every instance draws from the same budget; else in memory).
 *
 * - "minute": `rate_limit_per_minute` points in a fixed 60 s window that starts at the key's
 *   first request in it (rate-limiter-flexible's fixed window).
 * - "day": `daily_quota` points per UTC calendar day. rate-limiter-flexible's windows start at
 *   first use, so the day is aligned by the counter's key instead: `<key id>:<YYYY-MM-DD>`
 *   (UTC). A new day is a new counter; the old one simply expires (its TTL is 25 h, longer
 *   than any day it can count). The reset announced is the next UTC midnight.
 *
 * A request first takes a point from the minute budget; only if that succeeds does it take
 * one from the day budget, so a request refused per minute never spends the daily quota.
 *
 * Redis down: each Redis limiter has an in-memory `insuranceLimiter` with the same budget
 * (rate-limiter-flexible falls back to it when a command fails), and while the connection is
 * not "ready" requests go to it directly rather than wait on reconnects. Limits therefore
 * keep holding, per instance, until Redis answers again (fail open to per-instance limits;
 * see README "Limits").
 */
export type PolicyName = "minute" | "day";

export interface PolicyState {
  name: PolicyName;
  /** quota units in the window */
  quota: number;
  /** window length announced in RateLimit-Policy, seconds */
  window: number;
  remaining: number;
  /** seconds until the window resets (never less than 1 while something is consumed) */
  reset: number;
}

export type KeyLimitResult = { ok: true; policies: PolicyState[] } | { ok: false; exceeded: PolicyState; policies: PolicyState[] };

const MINUTE = 60;
const DAY = 86_400;
const DAY_COUNTER_TTL = 25 * 3600;

/** A shared budget and, when it lives in Redis, the in-memory insurance used while Redis is away. */
interface Budget {
  shared: RateLimiterAbstract;
  insurance?: RateLimiterMemory;
  client?: { status?: string; on?: (event: string, fn: (err: Error) => void) => unknown };
}

const budgets = new Map<string, Budget>();
const watchedClients = new WeakSet<object>();
let lastRedisComplaint = 0;
/** Set by a connection error, cleared when the connection is ready again. */
let redisFailing = false;

/** The shared limiter, with an in-memory insurance limiter of the same budget when it is Redis. */
function budget(name: string, points: number, duration: number): Budget {
  const id = `${name}:${points}:${duration}`;
  let b = budgets.get(id);
  if (!b) {
    const shared = getLimiter(name, points, duration);
    b = { shared };
    if (!(shared instanceof RateLimiterMemory) && "insuranceLimiter" in shared) {
      b.insurance = new RateLimiterMemory({ keyPrefix: `insurance:${name}`, points, duration });
      // Used by rate-limiter-flexible itself when a Redis command fails in flight.
      (shared as unknown as { insuranceLimiter: RateLimiterAbstract }).insuranceLimiter = b.insurance;
      b.client = (shared as unknown as { client?: Budget["client"] }).client;
      const client = b.client;
      if (client && typeof client.on === "function" && !watchedClients.has(client)) {
        watchedClients.add(client);
        // One line every 30 s at most, instead of ioredis's unhandled-error noise.
        client.on("ready", () => {
          redisFailing = false;
        });
        client.on("error", (err: Error) => {
          redisFailing = true;
          if (Date.now() - lastRedisComplaint < 30_000) return;
          lastRedisComplaint = Date.now();
          console.error(`[hallmark] Redis unavailable, rate limits are counted per instance until it is back: ${err.message}`);
        });
      }
    }
    budgets.set(id, b);
  }
  return b;
}

/**
 * While the Redis connection is failing (an error since it was last ready), go straight to
 * the insurance: no request waits on reconnects. A first connection still in progress is
 * waited for (commands queue until it is ready), so a fresh instance counts in Redis at once.
 */
function limiterNow(b: Budget): RateLimiterAbstract {
  return b.insurance && redisFailing && b.client?.status !== "ready" ? b.insurance : b.shared;
}

/** "YYYY-MM-DD" of `now` in UTC, and the seconds left until the next UTC midnight. */
export function utcDay(now = new Date()): { day: string; secondsToMidnight: number } {
  const day = now.toISOString().slice(0, 10);
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day, secondsToMidnight: Math.max(1, Math.ceil((midnight - now.getTime()) / 1000)) };
}

async function take(l: RateLimiterAbstract, key: string): Promise<{ ok: boolean; res: RateLimiterRes }> {
  try {
    return { ok: true, res: await l.consume(key, 1) };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { ok: false, res: err };
    throw err; // the store failed and no insurance answered: the caller decides
  }
}

/** Spends one request of the key's minute and day budgets, minute first. */
export async function consumeKeyLimits(key: { apiKeyId: string; rateLimitPerMinute: number; dailyQuota: number }): Promise<KeyLimitResult> {
  const perMinute = Math.max(1, key.rateLimitPerMinute);
  const perDay = Math.max(1, key.dailyQuota);

  const m = await take(limiterNow(budget("key-minute", perMinute, MINUTE)), key.apiKeyId);
  const minute: PolicyState = {
    name: "minute",
    quota: perMinute,
    window: MINUTE,
    remaining: Math.max(0, m.res.remainingPoints),
    reset: Math.max(1, Math.ceil(m.res.msBeforeNext / 1000)),
  };
  if (!m.ok) return { ok: false, exceeded: minute, policies: [minute] };

  const { day: date, secondsToMidnight } = utcDay();
  const d = await take(limiterNow(budget("key-day", perDay, DAY_COUNTER_TTL)), `${key.apiKeyId}:${date}`);
  const day: PolicyState = { name: "day", quota: perDay, window: DAY, remaining: Math.max(0, d.res.remainingPoints), reset: secondsToMidnight };
  if (!d.ok) return { ok: false, exceeded: day, policies: [minute, day] };
  return { ok: true, policies: [minute, day] };
}

/** The policy closest to refusing: fewest requests left; on a tie, the later reset. */
export function mostConstraining(policies: PolicyState[]): PolicyState {
  return policies.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.reset > a.reset) ? b : a));
}
