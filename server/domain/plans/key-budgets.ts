import "server-only";
import { LRUCache } from "lru-cache";
import { getDb } from "../../db";
import { processWide } from "../../process-wide";
import { AppError } from "../../errors";
import { type Plan, planOf } from "./plans";

/** What an account's limits follow: a consumer's plan, or being an organisation. */
export type AccountPlan = Plan | "organization";

/** A request budget: requests per minute (fixed 60 s window) and per UTC day. */
export interface RequestBudget {
  rateLimitPerMinute: number;
  dailyQuota: number;
}

/**
 * The most one API key may be given, per plan, and what the account's sessions together may
 * spend. A key asking for more is refused at creation (422); a stored key above its plan's
 * figures (made before, or whose account's plan went down) spends only the plan's figures.
 * The free plan's figures are a new key's defaults (DEFAULT_* in api-keys.ts), so a default key
 * fits every plan; Pro's and an organisation's are those of the key `npm run admin -- create-org`
 * makes.
 */
export const PLAN_REQUEST_BUDGETS: Record<AccountPlan, RequestBudget> = {
  free: { rateLimitPerMinute: 600, dailyQuota: 100_000 },
  creator: { rateLimitPerMinute: 6_000, dailyQuota: 1_000_000 },
  pro: { rateLimitPerMinute: 100_000, dailyQuota: 10_000_000 },
  organization: { rateLimitPerMinute: 100_000, dailyQuota: 10_000_000 },
};

/**
 * The most active API keys an account may hold at once, per plan; and twice as many may be
 * created in any 24 hours, revoked ones included, so revoking a spent key and creating a fresh
 * one cannot renew a day's budget without bound. With each key's budget bounded above, an
 * account's keys together are bounded too. Keys an operator makes (`npm run admin`) are not
 * counted.
 */
export const PLAN_ACTIVE_KEYS: Record<AccountPlan, number> = {
  free: 10,
  creator: 25,
  pro: 100,
  organization: 1000,
};

const TTL_MS = 60_000;
/**
 * An account's plan, on every authenticated request: a tenant's kind never changes, and a change
 * of plan takes effect within TTL_MS. Bounded in count as well as time.
 */
const plans = processWide("account-plans", () => new LRUCache<string, AccountPlan>({ max: 10_000, ttl: TTL_MS }));

/** The plan an account's limits follow. An unknown tenant (deleted meanwhile) gets the smallest. */
export async function accountPlanOf(tenantId: string): Promise<AccountPlan> {
  let plan = plans.get(tenantId);
  if (plan === undefined) {
    const tenant = await getDb().read.tenant.findUnique({
      where: { id: tenantId },
      select: { kind: true, users: { select: { plan: true }, take: 1 } },
    });
    plan = tenant?.kind === "ORGANIZATION" ? "organization" : planOf(tenant?.users[0]?.plan ?? "free");
    plans.set(tenantId, plan);
  }
  return plan;
}

/** A key's budget as it is spent: what it was given, within what its account's plan allows. */
export function boundedBudget(budget: RequestBudget, plan: AccountPlan): RequestBudget {
  const bound = PLAN_REQUEST_BUDGETS[plan];
  return {
    rateLimitPerMinute: Math.min(budget.rateLimitPerMinute, bound.rateLimitPerMinute),
    dailyQuota: Math.min(budget.dailyQuota, bound.dailyQuota),
  };
}

const planName = (plan: AccountPlan) => (plan === "organization" ? "An organisation's" : `The ${plan} plan's`);

/** 422 with a pointer per figure above what the account's plan allows one key; nothing is created. */
export function checkKeyBudget(requested: Partial<RequestBudget>, plan: AccountPlan): void {
  const bound = PLAN_REQUEST_BUDGETS[plan];
  const errors: { pointer: string; detail: string }[] = [];
  if (requested.rateLimitPerMinute !== undefined && requested.rateLimitPerMinute > bound.rateLimitPerMinute) {
    errors.push({ pointer: "/rate_limit_per_minute", detail: `${planName(plan)} keys allow at most ${bound.rateLimitPerMinute}` });
  }
  if (requested.dailyQuota !== undefined && requested.dailyQuota > bound.dailyQuota) {
    errors.push({ pointer: "/daily_quota", detail: `${planName(plan)} keys allow at most ${bound.dailyQuota}` });
  }
  if (errors.length > 0) {
    throw new AppError("validation_failed", "A key cannot have a larger budget than its account's plan allows; see errors.", errors);
  }
}
