import "server-only";
import {
  ZAccount,
  ZAccountDeleted,
  ZEmailChangeSent,
  ZPasswordChanged,
  ZSessionEnded,
  ZSessionList,
  ZSessionsEnded,
} from "../schemas/accounts";
import {
  changePassword,
  deleteAccount,
  endOtherSessions,
  endOwnSession,
  getAccount,
  listSessions,
  renameAccount,
} from "../../domain/accounts";
import { requestEmailChange } from "../../domain/accounts";
import { router, sessionProcedure } from "../trpc";
import { ZChangeEmailInput, ZChangePasswordInput, ZDeleteAccountInput, ZEndSessionInput, ZRenameInput } from "./consumer-auth.types";

/** The signed-in person's own account (the dashboard's Account page): a session only, never an API key. */
export const accountRouter = router({
  get: sessionProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/account",
        tag: "Consumer",
        auth: "required",
        summary: "Your account",
        description: "Takes a session (cookie or Authorization: Bearer); an API key is refused with 403.",
        problems: ["forbidden"],
      },
    })
    .output(ZAccount)
    .query(({ ctx }) => getAccount(ctx.principal)),
  rename: sessionProcedure
    .meta({
      rest: {
        method: "PATCH",
        path: "/v1/consumer/account",
        tag: "Consumer",
        auth: "required",
        input: "body",
        summary: "Change your name",
        problems: ["forbidden"],
      },
    })
    .input(ZRenameInput)
    .output(ZAccount)
    .mutation(({ ctx, input }) => renameAccount(ctx.principal, input.name)),
  changePassword: sessionProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/account/password",
        tag: "Consumer",
        auth: "required",
        input: "body",
        summary: "Change your password",
        description:
          "Needs the current password. Ends every other session of the account; the one that asked stays. With `revoke_api_keys`, also revokes every API key of the account. The account's address is mailed a notice. At most 5 wrong current passwords per account per 15 minutes (then 429 too_many_attempts).",
        problems: ["forbidden", "wrong_password", "too_many_attempts"],
      },
    })
    .input(ZChangePasswordInput)
    .output(ZPasswordChanged)
    .mutation(({ ctx, input }) => changePassword(ctx.principal, input, { client: ctx.clientAddress, userAgent: ctx.userAgent })),
  changeEmail: sessionProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/account/email",
        tag: "Consumer",
        auth: "required",
        input: "body",
        status: 202,
        summary: "Move your account to another address",
        description:
          "Needs the current password (at most 5 wrong ones per account per 15 minutes, as for a password change). Mails a link (valid one hour) to the new address; the account moves when it is followed (POST /v1/consumer/verify-email), and then every other session of the account ends (the one that asked stays) and every pending link mailed to the old address (reset, verification) stops working. The old address gets a notice at once. The answer is the same whether or not the new address is free. At most 10 per client address per hour (429 rate_limited).",
        problems: ["forbidden", "wrong_password", "rate_limited", "too_many_attempts"],
      },
    })
    .input(ZChangeEmailInput)
    .output(ZEmailChangeSent)
    .mutation(({ ctx, input }) =>
      requestEmailChange({
        ...input,
        userId: ctx.principal.userId,
        sessionId: ctx.principal.sessionId,
        client: ctx.clientAddress,
        headers: ctx.responseHeaders,
      }),
    ),
  sessions: sessionProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/sessions",
        tag: "Consumer",
        auth: "required",
        summary: "Your live sessions",
        description: "Newest first; `current` marks the one that asked.",
        problems: ["forbidden"],
      },
    })
    .output(ZSessionList)
    .query(({ ctx }) => listSessions(ctx.principal)),
  endSession: sessionProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/sessions/{id}/end",
        tag: "Consumer",
        auth: "required",
        summary: "End one of your sessions",
        problems: ["forbidden", "not_found"],
      },
    })
    .input(ZEndSessionInput)
    .output(ZSessionEnded)
    .mutation(({ ctx, input }) => endOwnSession(ctx.principal, input.id)),
  endOtherSessions: sessionProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/sessions/end-others",
        tag: "Consumer",
        auth: "required",
        summary: "End every session but this one",
        problems: ["forbidden"],
      },
    })
    .output(ZSessionsEnded)
    .mutation(({ ctx }) => endOtherSessions(ctx.principal)),
  delete: sessionProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/account/delete",
        tag: "Consumer",
        auth: "required",
        input: "body",
        summary: "Delete your account",
        description:
          "Needs the current password. Deletes the person's data: name, e-mail address, password hash, sessions, API keys, pending links and every protection's record, so its verify, share and portfolio pages answer not found. Each protection's signed entry (its id, content hash and category, signed by a personal issuer that never carried the person's name) stays in the append-only public log. The address may sign up again. An organisation's owner is refused (403 forbidden).",
        problems: ["forbidden", "wrong_password", "too_many_attempts"],
        responseHeaders: [{ name: "Set-Cookie", description: "clears the session cookie" }],
      },
    })
    .input(ZDeleteAccountInput)
    .output(ZAccountDeleted)
    .mutation(({ ctx, input }) => deleteAccount(ctx.principal, input)),
});
