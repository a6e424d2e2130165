import "server-only";
import { RateLimiterRes } from "rate-limiter-flexible";
import { utcDay } from "./calendar";
import { getLimiter, type Limiter } from "./limiter";

/**
 * The two budgets of an API key (or of an account's sessions together), counted with rate-limiter-flexible (in Redis when
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
 * Redis down: see server/limits/limiter.ts (limits keep holding per instance; docs/operating.md, "Limits").
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

const taken = (res: RateLimiterRes) => ({ ok: true, res });
const refused = (err: unknown) => {
  if (err instanceof RateLimiterRes) return { ok: false, res: err };
  throw err; // the store failed and no insurance answered: the caller decides
};

/** One point of `key`'s budget: refused (ok false) when spent. Every request passes here: no extra async frame. */
function take(l: Limiter, key: string): Promise<{ ok: boolean; res: RateLimiterRes }> {
  return l.consume(key, 1).then(taken, refused);
}

/**
 * Spends one request of a budget's minute and day, minute first. `holder` names whose budget it
 * is: "key" (an API key's id) or "session" (a user's id: every session of the account together).
 */
export async function consumeRequestBudget(
  holder: "key" | "session",
  id: string,
  budget: { rateLimitPerMinute: number; dailyQuota: number },
): Promise<KeyLimitResult> {
  const perMinute = Math.max(1, budget.rateLimitPerMinute);
  const perDay = Math.max(1, budget.dailyQuota);

  const m = await take(getLimiter(`${holder}-minute`, perMinute, MINUTE), id);
  const minute: PolicyState = {
    name: "minute",
    quota: perMinute,
    window: MINUTE,
    remaining: Math.max(0, m.res.remainingPoints),
    reset: Math.max(1, Math.ceil(m.res.msBeforeNext / 1000)),
  };
  if (!m.ok) return { ok: false, exceeded: minute, policies: [minute] };

  const { day: date, secondsToMidnight } = utcDay();
  const d = await take(getLimiter(`${holder}-day`, perDay, DAY_COUNTER_TTL), `${id}:${date}`);
  const day: PolicyState = {
    name: "day",
    quota: perDay,
    window: DAY,
    remaining: Math.max(0, d.res.remainingPoints),
    reset: secondsToMidnight,
  };
  if (!d.ok) return { ok: false, exceeded: day, policies: [minute, day] };
  return { ok: true, policies: [minute, day] };
}

/** The policy closest to refusing: fewest requests left; on a tie, the later reset. */
export function mostConstraining(policies: PolicyState[]): PolicyState {
  return policies.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.reset > a.reset) ? b : a));
}
