import "server-only";
import { z } from "zod";
import { ZApiKey, ZApiKeyCreated, ZRevokedApiKey } from "../schemas/accounts";
import { TRPCError } from "@trpc/server";
import { createBoundedApiKey, listApiKeys, revokeApiKey, scopesForTenant } from "../../domain/accounts";
import { noticeNewKey } from "../../domain/accounts";
import { checkPasswordForWhatLasts } from "../../domain/accounts";
import { AppError } from "../../errors";
import { accountPlanOf, checkKeyBudget, PLAN_ACTIVE_KEYS, PLAN_REQUEST_BUDGETS } from "../../domain/plans";
import { router, scopedProcedure } from "../trpc";
import { ZIdInput } from "../schemas/common";
import { ZCreateApiKeyInput } from "./api-keys.types";

/** "free 600/min and 100000/day, …": each plan's largest key budget, for the descriptions. */
const budgetTable = () =>
  Object.entries(PLAN_REQUEST_BUDGETS)
    .map(([plan, b]) => `${plan} ${b.rateLimitPerMinute}/min and ${b.dailyQuota}/day`)
    .join(", ");

/** "free 10, creator 25, …": how many active keys each plan allows. */
const activeKeysTable = () =>
  Object.entries(PLAN_ACTIVE_KEYS)
    .map(([plan, n]) => `${plan} ${n}`)
    .join(", ");

export const apiKeysRouter = router({
  list: scopedProcedure("api_keys:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/api-keys",
        tag: "API keys",
        auth: "required",
        summary: "List API keys",
        description:
          "Every key of the caller's organisation or account, newest first. Secrets are never returned: a key shows its prefix only.",
      },
    })
    .output(z.array(ZApiKey))
    .query(({ ctx }) => listApiKeys({ tenantId: ctx.principal.tenantId })),
  create: scopedProcedure("api_keys:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/api-keys",
        tag: "API keys",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Create an API key",
        description:
          "The secret is in this answer only (it is stored as a hash). A key can grant only scopes its creator holds. " +
          "`rate_limit_per_minute` and `daily_quota` (default 600 and 100000) may not exceed what the account's plan allows one key: " +
          budgetTable() +
          "; more is 422 `validation_failed` with a pointer to the field. An account holds at most " +
          activeKeysTable() +
          " active keys, and twice as many may be created in any 24 hours (revoked ones included); past either bound this is 409 `too_many_keys`. " +
          "From a session, `password` (the account's current password) is required, as a key outlasts the session: missing is 422 at /password, wrong is 403 `wrong_password`, and at most 5 wrong ones per account per 15 minutes (then 429 `too_many_attempts`). A key with `api_keys:write` needs none. " +
          "Every new key is mailed to the account's address: its name, prefix, time, client address and browser (the first at once; keys made in the minute after it in one digest at the minute's end).",
        problems: ["too_many_keys", "wrong_password", "too_many_attempts"],
      },
    })
    .input(ZCreateApiKeyInput)
    .output(ZApiKeyCreated)
    .mutation(async ({ ctx, input }) => {
      // A key can hand out only what it holds itself: no escalation through key creation.
      const extra = input.scopes.filter((s) => !ctx.principal.scopes.has(s));
      if (extra.length > 0) {
        throw new TRPCError({
          code: "FORBIDDEN",
          cause: new AppError("insufficient_scope", `This API key cannot grant scopes it lacks: ${extra.join(", ")}.`),
        });
      }
      // And whatever it holds, a key of a consumer (personal tenant) holds consumer scopes only.
      const allowed = await scopesForTenant(ctx.principal.tenantId);
      const foreign = input.scopes.filter((s) => !allowed.includes(s));
      if (foreign.length > 0) {
        throw new TRPCError({
          code: "FORBIDDEN",
          cause: new AppError("insufficient_scope", `Keys of this account cannot hold: ${foreign.join(", ")}.`),
        });
      }
      // Nor a budget larger than the account's plan allows one key.
      const plan = await accountPlanOf(ctx.principal.tenantId);
      checkKeyBudget({ rateLimitPerMinute: input.rate_limit_per_minute, dailyQuota: input.daily_quota }, plan);
      // A key outlasts the session that makes it: a session proves it holds the password.
      if (ctx.principal.kind === "session") await checkPasswordForWhatLasts(ctx.principal.userId, input.password, "an API key");
      // Nor more keys than the plan allows: many keys would multiply the budget.
      const { key, secret } = await createBoundedApiKey(
        {
          tenantId: ctx.principal.tenantId,
          userId: ctx.principal.userId,
          name: input.name,
          scopes: input.scopes,
          dailyQuota: input.daily_quota,
          rateLimitPerMinute: input.rate_limit_per_minute,
        },
        PLAN_ACTIVE_KEYS[plan],
        ctx.principal.kind === "session" ? { sessionId: ctx.principal.sessionId } : { apiKeyId: ctx.principal.apiKeyId },
      );
      noticeNewKey(ctx.principal.tenantId, {
        name: key.name,
        prefix: key.prefix,
        at: new Date(key.created_at),
        client: ctx.clientAddress,
        userAgent: ctx.userAgent,
      });
      return { ...key, key: secret };
    }),
  revoke: scopedProcedure("api_keys:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/api-keys/{id}/revoke",
        tag: "API keys",
        auth: "required",
        summary: "Revoke an API key",
        description: "Permanent: every later request with the key is 401.",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZRevokedApiKey)
    .mutation(({ ctx, input }) => revokeApiKey({ tenantId: ctx.principal.tenantId, id: input.id })),
});
