import "server-only";
import { type AppError, ERRORS, type ErrorCode, type FieldError } from "../errors";
import { metrics } from "../observability/metrics.mjs";

/**
 * RFC 9457 problem details, plus `code` (stable), `request_id` (the X-Request-Id the answer
 * carries, for finding the request in the server's log) and `errors` (field-level failures).
 * Counted by code (hallmark_problems_total).
 */
export function problemResponse(
  code: ErrorCode,
  detail: string,
  extra: { requestId: string; errors?: FieldError[]; headers?: Record<string, string>; instance?: string },
): Response {
  const { status, title } = ERRORS[code];
  metrics.problems.inc({ code });
  const body = {
    type: `urn:hallmark:problem:${code}`,
    title,
    status,
    detail,
    code,
    request_id: extra.requestId,
    ...(extra.instance ? { instance: extra.instance } : {}),
    ...(extra.errors?.length ? { errors: extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...extra.headers },
  });
}

export function appErrorResponse(err: AppError, requestId: string): Response {
  return problemResponse(err.code, err.detail, { requestId, errors: err.errors, headers: err.headers });
}
