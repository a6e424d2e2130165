import "server-only";
import { TRPCError } from "@trpc/server";
import { login, resendVerification, signUp, verifyEmail } from "../../domain/accounts";
import { AppError } from "../../domain/errors";
import { endSession } from "../../domain/sessions";
import { publicProcedure, router, type Context } from "../trpc";
import { ZLoginInput, ZResendVerificationInput, ZSignupInput, ZVerifyEmailInput } from "./consumer-auth.types";

/**
 * The client address a login is throttled by. The REST route passes it in the context
 * (`createCaller({principal, clientAddress})`); without one, all such callers share a bucket.
 */
export type ConsumerAuthContext = Context & { clientAddress?: string };

/** Sign-up, e-mail verification, login and logout (issue 3, accounts slice). */
export const consumerAuthRouter = router({
  signup: publicProcedure.input(ZSignupInput).mutation(({ input }) => signUp(input)),
  verifyEmail: publicProcedure.input(ZVerifyEmailInput).mutation(({ input }) => verifyEmail(input)),
  resendVerification: publicProcedure.input(ZResendVerificationInput).mutation(({ input }) => resendVerification(input)),
  login: publicProcedure.input(ZLoginInput).mutation(async ({ ctx, input }) => {
    const { session_token, user } = await login({ ...input, client: (ctx as ConsumerAuthContext).clientAddress ?? "unknown" });
    return { session_token, user };
  }),
  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.principal?.kind !== "session") {
      throw new TRPCError({
        code: "UNAUTHORIZED",
        cause: new AppError("unauthenticated", "Logout ends a session: send the session cookie or Authorization: Bearer <session_token>."),
      });
    }
    await endSession(ctx.principal.sessionId);
    return { status: "logged_out" as const };
  }),
});
