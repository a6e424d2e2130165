import "server-only";
import { getDb } from "../db";
import { AppError } from "./errors";
import type { Plan } from "./consumers";

/** Mints per UTC calendar month (interface §8); null = unlimited. */
export const PLAN_LIMITS: Record<Plan, number | null> = { free: 50, creator: 500, pro: null };

export const planOf = (value: string): Plan => (value === "creator" || value === "pro" ? value : "free");

/** "YYYY-MM" of the UTC calendar month holding `at`. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** 00:00:00.000 UTC on the first day of the month after `at`. */
export const nextMonthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/**
 * Takes one mint from the user's monthly quota, or throws 429 quota_exceeded. The counter row is
 * created if missing (INSERT … ON CONFLICT DO NOTHING, so racing first mints do not collide),
 * then incremented only while below the limit: one conditional UPDATE, so concurrent requests
 * can never take more than the limit (SQLite serialises the transactions; PostgreSQL locks the
 * row and re-checks the condition). Returns the month charged, for releaseUnit.
 */
export async function reserveUnit(userId: string, plan: Plan): Promise<string> {
  const now = new Date();
  const month = monthOf(now);
  const limit = PLAN_LIMITS[plan];
  const taken = await getDb().write(async (tx) => {
    await tx.$executeRaw`INSERT INTO usage_counters (user_id, month, "count") VALUES (${userId}, ${month}, 0) ON CONFLICT DO NOTHING`;
    const res = await tx.usageCounter.updateMany({
      where: limit === null ? { userId, month } : { userId, month, count: { lt: limit } },
      data: { count: { increment: 1 } },
    });
    return res.count;
  });
  if (taken === 0) {
    const resetsAt = nextMonthStart(now);
    const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000));
    throw new AppError(
      "quota_exceeded",
      `The ${plan} plan allows ${limit} protections per calendar month (UTC); the quota resets at ${resetsAt.toISOString()}.`,
      undefined,
      { "Retry-After": String(retryAfter) },
    );
  }
  return month;
}

/** Gives back a unit reserved by reserveUnit when the mint did not happen. */
export async function releaseUnit(userId: string, month: string): Promise<void> {
  await getDb().write((tx) =>
    tx.usageCounter.updateMany({ where: { userId, month, count: { gt: 0 } }, data: { count: { decrement: 1 } } }),
  );
}

export interface UsageView {
  plan: Plan;
  month: string;
  used: number;
  limit: number | null;
  remaining: number | null;
  resets_at: string;
}

export async function getUsage(user: { id: string; plan: string }): Promise<UsageView> {
  const now = new Date();
  const plan = planOf(user.plan);
  const month = monthOf(now);
  const row = await getDb().read.usageCounter.findUnique({ where: { userId_month: { userId: user.id, month } } });
  const used = row?.count ?? 0;
  const limit = PLAN_LIMITS[plan];
  return {
    plan,
    month,
    used,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resets_at: nextMonthStart(now).toISOString(),
  };
}
