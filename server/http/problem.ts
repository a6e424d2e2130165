import "server-only";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldError } from "../domain/errors";

export const TITLES: Record<ErrorCode, string> = {
  validation_failed: "The request is not valid",
  invalid_parameter: "A parameter is not valid",
  malformed_request: "Malformed request",
  malformed_json: "The body is not JSON",
  unsupported_media_type: "Unsupported media type",
  payload_too_large: "The body is too large",
  method_not_allowed: "Method not allowed",
  unauthenticated: "Authentication required",
  invalid_api_key: "Invalid API key",
  invalid_session: "Invalid or ended session",
  invalid_credentials: "Wrong e-mail or password",
  email_not_verified: "E-mail address not verified",
  invalid_token: "Invalid or expired link",
  idempotency_key_reused: "Idempotency key reused with a different request",
  too_many_attempts: "Too many attempts",
  quota_exceeded: "Monthly protection quota exceeded",
  daily_quota_exceeded: "Daily API key quota exceeded",
  insufficient_scope: "Insufficient scope",
  cross_origin_request: "Cross-origin request refused",
  not_found: "Not found",
  conflict: "Conflict",
  issuer_not_active: "The issuer cannot sign",
  pack_read_only: "Built-in templates are read-only",
  pack_archived: "The pack is archived",
  rate_limited: "Too many requests",
  headers_too_large: "Request headers too large",
  service_unavailable: "Service unavailable",
  internal_error: "Internal error",
};

/** RFC 9457 problem details, plus `code` (stable) and `errors` (field-level failures). */
export function problemResponse(
  code: ErrorCode,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; instance?: string } = {},
): Response {
  const status = ERROR_STATUS[code];
  const body = {
    type: `urn:hallmark:problem:${code}`,
    title: TITLES[code],
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
