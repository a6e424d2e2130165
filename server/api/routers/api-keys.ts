import "server-only";
import { TRPCError } from "@trpc/server";
import { createApiKey, listApiKeys, revokeApiKey, scopesForTenant } from "../../domain/api-keys";
import { AppError } from "../../domain/errors";
import { router, scopedProcedure } from "../trpc";
import { ZIdInput } from "./attestations.types";
import { ZCreateApiKeyInput } from "./api-keys.types";

export const apiKeysRouter = router({
  list: scopedProcedure("api_keys:read").query(({ ctx }) => listApiKeys({ tenantId: ctx.principal.tenantId })),
  create: scopedProcedure("api_keys:write")
    .input(ZCreateApiKeyInput)
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
      const { key, secret } = await createApiKey({
        tenantId: ctx.principal.tenantId,
        userId: ctx.principal.userId,
        name: input.name,
        scopes: input.scopes,
        dailyQuota: input.daily_quota,
        rateLimitPerMinute: input.rate_limit_per_minute,
      });
      return { ...key, key: secret };
    }),
  revoke: scopedProcedure("api_keys:write")
    .input(ZIdInput)
    .mutation(({ ctx, input }) => revokeApiKey({ tenantId: ctx.principal.tenantId, id: input.id })),
});
