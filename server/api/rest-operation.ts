import type { ZodType } from "zod";
import type { ErrorCode } from "../errors";

/**
 * How a procedure is served under /v1: declared beside the procedure (`.meta({ rest })`), read
 * by the route handler (server/http/api-route.ts) and by the OpenAPI generator
 * (server/api/openapi.ts), so the REST surface and its description come from one place.
 */
export interface RestOperation {
  method: "GET" | "POST" | "PATCH";
  /** The path as OpenAPI templates it: `/v1/attestations/{id}`. Path parameters go into the input. */
  path: `/v1/${string}`;
  summary: string;
  description?: string;
  tag: RestTag;
  /**
   * "required": an API key (X-API-Key) or a session must be sent. "optional": public, but
   * credentials that are sent must be valid. "no-session": public and a session sent along is
   * ignored (the endpoints that obtain one), while an X-API-Key sent must still be valid.
   */
  auth: "required" | "optional" | "no-session";
  /** Where the rest of the input comes from: the JSON body, the query string, or a text body as `body` (default: neither). */
  input?: "body" | "query" | "text";
  /** Largest JSON body accepted, in bytes (default MAX_BODY_BYTES, server/http/body.ts). */
  maxBodyBytes?: number;
  /** Success status (default 200). */
  status?: number;
  /** What a success is sent as (default JSON). */
  produces?: "application/json" | "text/plain" | "application/octet-stream" | "image/svg+xml" | "application/zip" | "application/pdf";
  /** Problem codes this operation answers beyond those every operation of its kind can (see openapi.ts). */
  problems?: ErrorCode[];
  /** Request headers the operation reads, beyond credentials. */
  headers?: { name: string; description: string }[];
  /** Response headers a success carries, beyond the rate-limit ones. */
  responseHeaders?: { name: string; description: string }[];
  /** Answers beyond the success and the problems, by status (a tlog-witness 409 is text/x.tlog.size, not a problem). */
  otherAnswers?: Record<string, { description: string; contentType: string }>;
  /** The success body when the route reshapes the procedure's output (apiRoute's edge); else the output schema. */
  response?: ZodType;
}

export const REST_TAGS = {
  "API keys": "Create, list and revoke the API keys of an organisation or a consumer.",
  Issuers: "Issuers and their Ed25519 signing keys.",
  Attestations: "Signed attestations, their proof bundles and C2SP tlog-proofs.",
  Consumer: "Consumer accounts: sign-up, login, mint a protection, list protections, usage.",
  "Public protections": "What a verify or share link shows, for anyone, with its proofs.",
  Packs: "Verification packs: built-in templates and custom packs.",
  Verifications: "Run and read verifications of attestations against a pack.",
  "Transparency log": "The Merkle log as C2SP tlog-tiles, its checkpoint, policy and keys.",
  Witness: "This instance as a C2SP tlog-witness of the logs HALLMARK_WITNESS_LOGS lists.",
  Reference: "This document.",
} as const;
export type RestTag = keyof typeof REST_TAGS;

/** The meta every procedure may carry. */
export interface ProcedureMeta {
  rest?: RestOperation;
  /** The scopes of which the caller's key or session must hold one (set by scopedProcedure). */
  scopes?: readonly string[];
}
