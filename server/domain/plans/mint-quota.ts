import "server-only";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { utcMonth } from "../../limits/calendar";
import { type Plan, planOf } from "./plans";

/** Mints per UTC calendar month; null = unlimited. */
export const MINT_QUOTAS: Record<Plan, number | null> = { free: 50, creator: 500, pro: null };

/** "YYYY-MM" of the UTC calendar month (server/limits/calendar.ts) a mint at `at` counts in. */
export const monthOf = (at: Date): string => utcMonth(at).month;

/** 429 quota_exceeded for a mint at `at` over the plan's monthly limit, with Retry-After until the month ends. */
export function quotaExceeded(plan: Plan, at: Date): AppError {
  const { end, secondsToEnd } = utcMonth(at);
  return new AppError(
    "quota_exceeded",
    `The ${plan} plan allows ${MINT_QUOTAS[plan]} protections per calendar month (UTC); the quota resets at ${end.toISOString()}.`,
    undefined,
    { "Retry-After": String(secondsToEnd) },
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
  const plan = planOf(user.plan);
  const { month, end } = utcMonth();
  const row = await getDb().read.usageCounter.findUnique({ where: { userId_month: { userId: user.id, month } } });
  const used = row?.count ?? 0;
  const limit = MINT_QUOTAS[plan];
  return {
    plan,
    month,
    used,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resets_at: end.toISOString(),
  };
}
