import ERROR_TABLE from "../lib/errors.json";

/**
 * Every error the service answers: its stable snake_case `code`, HTTP status and title, in one
 * table (errors.json, which the gate reads too: it is plain ESM and cannot import TypeScript), so
 * every surface (REST, tRPC, pages, the gate, the OpenAPI document) reports a failure the same way.
 */
export const ERRORS = ERROR_TABLE satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

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
    this.status = ERRORS[code].status;
  }
}

export function notFound(what: string): AppError {
  return new AppError("not_found", `${what} not found`);
}
