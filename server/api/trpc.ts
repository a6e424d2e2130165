import "server-only";
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import type { Context } from "./context";
import { AppError } from "../errors";
import { jsonPointer } from "../domain/json-pointer";
import type { Scope } from "../domain/accounts";
import type { ProcedureMeta } from "./rest-operation";

export type { Context } from "./context";

type Issue = { path?: ReadonlyArray<PropertyKey>; message: string };

/**
 * Field-level failures for forms, keyed by the top-level field: zod's input issues, or an
 * AppError's JSON pointers ("/title" → "title"). The first message per field wins.
 */
function fieldErrorsOf(cause: unknown): Record<string, string> | null {
  const out: Record<string, string> = {};
  const issues = (cause as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues)) for (const i of issues as Issue[]) out[String(i.path?.[0] ?? "")] ??= i.message;
  if (cause instanceof AppError) for (const e of cause.errors ?? []) out[e.pointer.split("/")[1] ?? ""] ??= e.detail;
  return Object.keys(out).length ? out : null;
}

/** Every field failure with its full JSON pointer ("/rules/max_age_days"), for forms that edit nested values. */
function fieldPointersOf(cause: unknown): { pointer: string; detail: string }[] | null {
  const issues = (cause as { issues?: unknown } | null)?.issues;
  const out = Array.isArray(issues) ? (issues as Issue[]).map((i) => ({ pointer: jsonPointer(i.path ?? []), detail: i.message })) : [];
  if (cause instanceof AppError) out.push(...(cause.errors ?? []).map((e) => ({ pointer: e.pointer, detail: e.detail })));
  return out.length ? out : null;
}

/** tRPC's code for each status an AppError can carry. */
const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * The HTTP status of an AppError on /api/trpc. 501 is oEmbed's own answer to a format it does not
 * serve, part of that protocol on /v1/oembed; through tRPC the same request is a bad one.
 */
export const trpcStatusOf = (status: number): number => (status === 501 ? 400 : status);

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // Only AppErrors carry a message meant for callers; anything else stays internal.
      const cause = error.cause instanceof AppError ? error.cause : null;
      const fieldErrors = fieldErrorsOf(error.cause);
      const internal = !cause && error.code === "INTERNAL_SERVER_ERROR";
      const message = cause
        ? cause.detail
        : fieldErrors
          ? "Some fields are not valid."
          : internal
            ? "An internal error occurred."
            : shape.message;
      // The stack stays in the server log, never in an answer.
      // A domain AppError keeps its status on /api/trpc too (tRPC would call it a 500); the
      // route's responseMeta sets the HTTP status from the same cause. REST maps it itself.
      const httpStatus = cause ? trpcStatusOf(cause.status) : 0;
      const status = cause && TRPC_CODE[httpStatus] ? { code: TRPC_CODE[httpStatus]!, httpStatus } : {};
      return {
        ...shape,
        message,
        data: {
          ...shape.data,
          ...status,
          stack: undefined,
          appCode: cause?.code ?? null,
          fieldErrors,
          fieldPointers: fieldPointersOf(error.cause),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure;

/** A procedure for a caller whose API key or session holds `scope` (or any of `alternatives`). */
export function scopedProcedure(scope: Scope, ...alternatives: Scope[]) {
  return t.procedure.meta({ scopes: [scope, ...alternatives] }).use(({ ctx, next }) => {
    const principal = ctx.principal;
    if (!principal) {
      throw new TRPCError({
        code: "UNAUTHORIZED",
        cause: new AppError("unauthenticated", "Send an API key in X-API-Key, or a session (cookie or Authorization: Bearer)."),
      });
    }
    if (!principal.scopes.has(scope) && !alternatives.some((s) => principal.scopes.has(s))) {
      throw new TRPCError({
        code: "FORBIDDEN",
        cause: new AppError("insufficient_scope", `This API key lacks the "${scope}" scope.`),
      });
    }
    return next({ ctx: { principal } });
  });
}

/**
 * A procedure for a person signed in with a session (cookie or Authorization: Bearer): the
 * account's own settings. An API key, whatever its scopes, is refused (403): a key is for
 * machines, and a leaked one must not be able to change who owns the account.
 */
export const sessionProcedure = t.procedure.use(({ ctx, next }) => {
  const principal = ctx.principal;
  if (!principal) {
    throw new TRPCError({
      code: "UNAUTHORIZED",
      cause: new AppError("unauthenticated", "Log in: send the session cookie or Authorization: Bearer <session_token>."),
    });
  }
  if (principal.kind !== "session") {
    throw new TRPCError({
      code: "FORBIDDEN",
      cause: new AppError("forbidden", "Account settings take a logged-in session, not an API key."),
    });
  }
  return next({ ctx: { principal } });
});
