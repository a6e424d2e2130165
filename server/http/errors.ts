import "server-only";
import { TRPCError } from "@trpc/server";
import { isBusy } from "../db";
import { AppError, type FieldError } from "../errors";
import { jsonPointer } from "../domain/json-pointer";
import { ClientClosedRequest } from "./body";
import { appErrorResponse, problemResponse } from "./problem";
import { requestIdOf } from "./request-id";
import { logger } from "../observability/logger.mjs";

type Issue = { path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>; message: string; code?: string; keys?: string[] };

const pointer = (path: Issue["path"]): string => jsonPointer((path ?? []).map((p) => (typeof p === "object" ? p.key : p)));

function validationIssues(err: unknown): Issue[] | null {
  const issues = (err as { issues?: unknown })?.issues;
  return Array.isArray(issues) ? (issues as Issue[]) : null;
}

/**
 * Maps anything a route handler throws to problem+json. AppErrors (possibly wrapped by tRPC)
 * keep their code; input validation failures become 422 (body) or 400 (query, path); a busy
 * database is a 503 with Retry-After; anything else is a 500 whose details stay in the server log.
 */
export function errorToResponse(err: unknown, inputIn: "body" | "query", req: Request): Response {
  const requestId = requestIdOf(req);
  const cause = err instanceof TRPCError ? err.cause : err;
  if (cause instanceof AppError) return appErrorResponse(cause, requestId);
  const issues = validationIssues(cause);
  if (err instanceof TRPCError && err.code === "BAD_REQUEST" && issues) {
    // An unknown member is reported at its own pointer (e.g. /extra), not at the object holding it.
    const errors: FieldError[] = issues.flatMap((i) =>
      i.code === "unrecognized_keys" && Array.isArray(i.keys) && i.keys.length > 0
        ? i.keys.map((k) => ({ pointer: pointer([...(i.path ?? []), k]), detail: "is not a known field" }))
        : [{ pointer: pointer(i.path), detail: i.message }],
    );
    return inputIn === "body"
      ? problemResponse("validation_failed", "The request body failed validation; see errors.", { requestId, errors })
      : problemResponse("invalid_parameter", "A query parameter is not valid; see errors.", { requestId, errors });
  }
  // nginx's 499: never delivered, and not a failure of ours to log.
  if (cause instanceof ClientClosedRequest) return new Response(null, { status: 499 });
  if (isBusy(cause)) {
    // Nothing was written (the transaction rolled back); the caller may simply retry.
    logger.warn({ req_id: requestId, db_code: (cause as { code: string }).code }, "database busy; answered 503");
    return problemResponse("service_unavailable", `The database is busy; try again in a moment (request ${requestId}).`, {
      requestId,
      headers: { "retry-after": "1" },
    });
  }
  logger.error({ req_id: requestId, err }, "request failed");
  return problemResponse("internal_error", `An internal error occurred (request ${requestId}).`, { requestId });
}
