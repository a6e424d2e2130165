/**
 * The one error type of the domain. `code` is stable and snake_case; the HTTP status is fixed
 * per code here, so every surface (REST, tRPC, pages) reports a failure the same way.
 */
export const ERROR_STATUS = {
  validation_failed: 422,
  invalid_parameter: 400,
  malformed_request: 400,
  malformed_json: 415,
  unsupported_media_type: 415,
  payload_too_large: 413,
  method_not_allowed: 405,
  unauthenticated: 401,
  invalid_api_key: 401,
  invalid_session: 401,
  invalid_credentials: 401,
  email_not_verified: 403,
  invalid_token: 400,
  idempotency_key_reused: 422,
  too_many_attempts: 429,
  quota_exceeded: 429,
  daily_quota_exceeded: 429,
  insufficient_scope: 403,
  cross_origin_request: 403,
  not_found: 404,
  conflict: 409,
  issuer_not_active: 409,
  pack_read_only: 409,
  pack_archived: 409,
  rate_limited: 429,
  headers_too_large: 431,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  /** JSON pointer (RFC 6901) into the request, e.g. "/payload/title". */
  pointer: string;
  detail: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

export function notFound(what: string): AppError {
  return new AppError("not_found", `${what} not found`);
}
