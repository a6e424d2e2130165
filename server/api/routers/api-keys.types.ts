import { z } from "zod";
import { name } from "@/lib/text-schemas";
import { SCOPES } from "../../domain/accounts";

export const ZCreateApiKeyInput = z.strictObject({
  name: name(100),
  scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length),
  // The plan's bound (domain/plans/key-budgets.ts) is checked after these, against the caller's account.
  daily_quota: z.number().int().min(1).max(1_000_000_000).optional(),
  rate_limit_per_minute: z.number().int().min(1).max(1_000_000).optional(),
  password: z.string().min(1).max(256).optional().meta({
    description: "The account's current password: required when the caller is a session (a key outlasts it), not needed with an API key.",
  }),
});
