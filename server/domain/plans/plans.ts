// The plans a consumer account may be on: the vocabulary the mint quota (mint-quota.ts), the key
// budgets (key-budgets.ts) and the account's answers share.

export const PLANS = ["free", "creator", "pro"] as const;
export type Plan = (typeof PLANS)[number];

/** A stored plan name as a Plan; any other value is the free plan, the one that allows least. */
export const planOf = (value: string): Plan => (value === "creator" || value === "pro" ? value : "free");
