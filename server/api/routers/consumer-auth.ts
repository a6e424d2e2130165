import "server-only";
import {
  ZEmailVerified,
  ZLoggedOut,
  ZLoginResult,
  ZPasswordReset,
  ZPasswordResetSent,
  ZResetKeys,
  ZVerificationSent,
} from "../schemas/accounts";
import { TRPCError } from "@trpc/server";
import { login } from "../../auth/login";
import { requestPasswordReset, resetKeys, resetPassword } from "../../domain/accounts";
import { resendVerification, signUp, verifyEmail } from "../../domain/accounts";
import { AppError } from "../../errors";
import { endSession } from "../../auth/sessions";
import { publicProcedure, router } from "../trpc";
import {
  ZLoginInput,
  ZPasswordResetConfirmInput,
  ZPasswordResetInput,
  ZResendVerificationInput,
  ZResetKeysInput,
  ZSignupInput,
  ZVerifyEmailInput,
} from "./consumer-auth.types";

/** Sign-up, e-mail verification, login, logout and password reset: what a person does before they have a session. */
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
        description:
          "Sends a verification e-mail; the account is made, with this password and name, when its link is followed (until then, a login with this password is 401 `invalid_credentials`, as any wrong one). The answer is the same whether or not the address already has an account (a verified one is mailed a notice and is not changed). At most 10 sign-ups per client address per hour (429 rate_limited), and at most 5 sign-up e-mails to one address per hour (beyond that nothing is sent, and the answer is the same); reset links and security notices have budgets of their own, which sign-ups cannot spend.",
        problems: ["rate_limited"],
      },
    })
    .input(ZSignupInput)
    .output(ZVerificationSent)
    .mutation(({ ctx, input }) => signUp({ ...input, client: ctx.clientAddress, headers: ctx.responseHeaders })),
  verifyEmail: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/verify-email",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        summary: "Verify an e-mail address",
        description:
          "With the token from a verification e-mail and the password it finishes with: a sign-up's (with the password chosen at that sign-up; it makes the account, or sets an unverified one's password and name and revokes its earlier sessions and keys), an e-mail change's (with the account's password; it moves the account to the new address) or an operator-made account's (with its password). " +
          "Without `password`, 422 with a pointer to /password; with a wrong one, 403 `wrong_password` and the link stays usable; past 5 wrong ones for one link in 15 minutes, 429 `too_many_attempts`.",
        problems: ["invalid_token", "wrong_password", "too_many_attempts"],
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
        description:
          "A new link for the address's newest pending sign-up (its earlier link stops working). The same answer for any address. At most 10 per client address per hour (429 rate_limited).",
        problems: ["rate_limited"],
      },
    })
    .input(ZResendVerificationInput)
    .output(ZVerificationSent)
    .mutation(({ ctx, input }) => resendVerification({ ...input, client: ctx.clientAddress, headers: ctx.responseHeaders })),
  requestPasswordReset: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/password-reset",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        status: 202,
        summary: "Ask for a password reset link",
        description:
          "Mails a single-use link, valid 30 minutes, if the address has an account; the same answer, and the same work, for any address. At most 10 per client address per hour (429 rate_limited). At most 3 reset links to one address per hour, and 3 more for requests from a client address that has logged in to the account before (beyond that nothing is sent, and the answer is the same).",
        problems: ["rate_limited"],
      },
    })
    .input(ZPasswordResetInput)
    .output(ZPasswordResetSent)
    .mutation(({ ctx, input }) => requestPasswordReset({ ...input, client: ctx.clientAddress, headers: ctx.responseHeaders })),
  resetPassword: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/password-reset/confirm",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        summary: "Set a new password with a reset link",
        description:
          "With the token from the reset e-mail. A reset is recovery: it ends every session and revokes every API key of the account (an organisation owner's: the organisation's keys), and voids the account's other pending links. The answer counts both.",
        problems: ["invalid_token"],
      },
    })
    .input(ZPasswordResetConfirmInput)
    .output(ZPasswordReset)
    .mutation(({ input }) => resetPassword(input)),
  resetKeys: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/password-reset/keys",
        tag: "Consumer",
        auth: "no-session",
        input: "body",
        summary: "The API keys a reset would revoke",
        description:
          "With the token from the reset e-mail: the account's active API keys (name, prefix, creation time), which setting a new password with this link revokes. Uses nothing up: the link stays usable.",
        problems: ["invalid_token"],
      },
    })
    .input(ZResetKeysInput)
    .output(ZResetKeys)
    .mutation(({ input }) => resetKeys(input)),
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
          "Answers a session token and sets the same session as an HttpOnly cookie. Present it later as Authorization: Bearer <session_token> or the cookie. Only a verified account logs in: a wrong password, an unknown address, an unverified account and a sign-up whose link was not followed yet are all the same 401 `invalid_credentials`.",
        problems: ["invalid_credentials", "too_many_attempts"],
        responseHeaders: [{ name: "Set-Cookie", description: "the session cookie (HttpOnly, SameSite=Lax, Secure under https)" }],
      },
    })
    .input(ZLoginInput)
    .output(ZLoginResult)
    .mutation(async ({ ctx, input }) => {
      const { session_token, user } = await login({ ...input, client: ctx.clientAddress, userAgent: ctx.userAgent });
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
