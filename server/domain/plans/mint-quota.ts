import "server-only";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { type Plan, planOf } from "./plans";

/** Mints per UTC calendar month; null = unlimited. */
export const MINT_QUOTAS: Record<Plan, number | null> = { free: 50, creator: 500, pro: null };

/** "YYYY-MM" of the UTC calendar month holding `at`. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** 00:00:00.000 UTC on the first day of the month after `at`. */
export const nextMonthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** 429 quota_exceeded for a mint at `at` over the plan's monthly limit, with Retry-After until the month ends. */
export function quotaExceeded(plan: Plan, at: Date): AppError {
  const resetsAt = nextMonthStart(at);
  const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000));
  return new AppError(
    "quota_exceeded",
    `The ${plan} plan allows ${MINT_QUOTAS[plan]} protections per calendar month (UTC); the quota resets at ${resetsAt.toISOString()}.`,
    undefined,
    { "Retry-After": String(retryAfter) },
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
  const limit = MINT_QUOTAS[plan];
  return {
    plan,
    month,
    used,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resets_at: nextMonthStart(now).toISOString(),
  };
}
