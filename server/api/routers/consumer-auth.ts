import "server-only";
import { ZEmailVerified, ZLoggedOut, ZLoginResult, ZVerificationSent } from "../schemas/accounts";
import { TRPCError } from "@trpc/server";
import { login, resendVerification, signUp, verifyEmail } from "../../domain/accounts";
import { AppError } from "../../domain/errors";
import { endSession } from "../../auth/sessions";
import { publicProcedure, router } from "../trpc";
import { ZLoginInput, ZResendVerificationInput, ZSignupInput, ZVerifyEmailInput } from "./consumer-auth.types";

/** Sign-up, e-mail verification, login and logout (issue 3, accounts slice). */
export const consumerAuthRouter = router({
  signup: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/signup",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        status: 202,
        summary: "Sign up",
        description: "Sends a verification e-mail. The answer is the same whether or not the address already has an account.",
        problems: ["too_many_attempts"],
      },
    })
    .input(ZSignupInput)
    .output(ZVerificationSent)
    .mutation(({ input }) => signUp(input)),
  verifyEmail: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/verify-email",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        summary: "Verify an e-mail address",
        description: "With the token from the verification e-mail.",
        problems: ["invalid_token", "too_many_attempts"],
      },
    })
    .input(ZVerifyEmailInput)
    .output(ZEmailVerified)
    .mutation(({ input }) => verifyEmail(input)),
  resendVerification: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/resend-verification",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        status: 202,
        summary: "Send the verification e-mail again",
        problems: ["too_many_attempts"],
      },
    })
    .input(ZResendVerificationInput)
    .output(ZVerificationSent)
    .mutation(({ input }) => resendVerification(input)),
  login: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/login",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        summary: "Log in",
        description:
          "Answers a session token and sets the same session as an HttpOnly cookie. Present it later as Authorization: Bearer <session_token> or the cookie.",
        problems: ["invalid_credentials", "email_not_verified", "too_many_attempts"],
        responseHeaders: [{ name: "Set-Cookie", description: "the session cookie (HttpOnly, SameSite=Lax, Secure under https)" }],
      },
    })
    .input(ZLoginInput)
    .output(ZLoginResult)
    .mutation(async ({ ctx, input }) => {
      const { session_token, user } = await login({ ...input, client: ctx.clientAddress });
      return { session_token, user };
    }),
  logout: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/logout",
        tag: "Consumer",
        auth: "required",
        summary: "Log out",
        description: "Ends the session sent (cookie or bearer token) and clears the cookie.",
        responseHeaders: [{ name: "Set-Cookie", description: "clears the session cookie" }],
      },
    })
    .output(ZLoggedOut)
    .mutation(async ({ ctx }) => {
      if (ctx.principal?.kind !== "session") {
        throw new TRPCError({
          code: "UNAUTHORIZED",
          cause: new AppError(
            "unauthenticated",
            "Logout ends a session: send the session cookie or Authorization: Bearer <session_token>.",
          ),
        });
      }
      await endSession(ctx.principal.sessionId);
      return { status: "logged_out" as const };
    }),
});
