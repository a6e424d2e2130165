import "server-only";
import { initTRPC, TRPCError } from "@trpc/server";
import type { Principal } from "../domain/principal";
import { AppError } from "../domain/errors";
import type { Scope } from "../domain/scopes";

/** Who is calling. Route handlers and the dashboard authenticate first and pass it in. */
export interface Context {
  principal: Principal | null;
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    // Only AppErrors carry a message meant for callers; anything else stays internal.
    const cause = error.cause instanceof AppError ? error.cause : null;
    return { ...shape, message: cause ? cause.detail : shape.message, data: { ...shape.data, appCode: cause?.code ?? null } };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** A procedure for a caller whose API key holds `scope`. */
export function scopedProcedure(scope: Scope) {
  return t.procedure.use(({ ctx, next }) => {
    const principal = ctx.principal;
    if (!principal) {
      throw new TRPCError({
        code: "UNAUTHORIZED",
        cause: new AppError("unauthenticated", "Send an API key in X-API-Key, or a session (cookie or Authorization: Bearer)."),
      });
    }
    if (!principal.scopes.has(scope)) {
      throw new TRPCError({
        code: "FORBIDDEN",
        cause: new AppError("insufficient_scope", `This API key lacks the "${scope}" scope.`),
      });
    }
    return next({ ctx: { principal } });
  });
}
