import "server-only";
import { type AppError, ERRORS, type ErrorCode, type FieldError } from "../domain/errors";

/** RFC 9457 problem details, plus `code` (stable) and `errors` (field-level failures). */
export function problemResponse(
  code: ErrorCode,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; instance?: string } = {},
): Response {
  const { status, title } = ERRORS[code];
  const body = {
    type: `urn:hallmark:problem:${code}`,
    title,
    status,
    detail,
    code,
    ...(extra.instance ? { instance: extra.instance } : {}),
    ...(extra.errors?.length ? { errors: extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...extra.headers },
  });
}

export function appErrorResponse(err: AppError, instance?: string): Response {
  return problemResponse(err.code, err.detail, { errors: err.errors, headers: err.headers, instance });
}
