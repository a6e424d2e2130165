import "server-only";
import type { AnyRouter } from "@trpc/server";
import { z, type ZodType } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ERRORS, type ErrorCode } from "../errors";
import { MAX_JSON_DEPTH } from "../json-depth.mjs";
import { REST_TAGS, type RestOperation } from "./rest-operation";
import { type Procedure, procedureFacts, routerProcedures } from "./trpc-adapter";
import { ZProblem } from "./schemas/common";
import { isPublicRead } from "../gate/public-reads.mjs";

/**
 * The OpenAPI 3.1 document of /v1, generated from the procedures' rest meta and their zod input
 * and output schemas (zod-openapi), the same schemas that validate requests and answers: it
 * cannot drift from what the server does. Served at /v1/openapi.json and shown at /docs.
 */

type Operation = { op: RestOperation; scopes: readonly string[]; procedure: Procedure };

/** Every procedure of `api` served under /v1, in a stable order (by path, then method). */
export function restOperations(api: AnyRouter): Operation[] {
  const out: Operation[] = [];
  for (const [, procedure] of routerProcedures(api)) {
    const { meta } = procedureFacts(procedure);
    if (meta?.rest) out.push({ op: meta.rest, scopes: meta.scopes ?? [], procedure });
  }
  return out.sort((a, b) => a.op.path.localeCompare(b.op.path) || a.op.method.localeCompare(b.op.method));
}

/** The problem codes any operation of this kind can answer, beyond its own. */
function commonProblems(op: RestOperation, scoped: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [
    "malformed_request",
    "headers_too_large",
    "invalid_api_key",
    "rate_limited",
    "daily_quota_exceeded",
    "service_unavailable",
    "internal_error",
  ];
  if (op.auth !== "no-session") codes.push("invalid_session");
  if (op.auth === "required") codes.push("unauthenticated");
  if (scoped) codes.push("insufficient_scope");
  if (op.method !== "GET") codes.push("cross_origin_request");
  if (op.input === "body") codes.push("validation_failed", "malformed_json", "unsupported_media_type", "payload_too_large");
  if (op.input === "text") codes.push("payload_too_large");
  if (op.input === "query") codes.push("invalid_parameter");
  return codes;
}

/** A response header; none is sent on every answer (the rate-limit ones only when a budget was spent). */
const header = (description: string) => z.string().optional().meta({ description });
const RATE_LIMIT_HEADERS = {
  RateLimit: header(
    'IETF RateLimit header (draft-ietf-httpapi-ratelimit-headers): requests left in a policy\'s window and seconds until it resets, e.g. "minute";r=599;t=60. Sent when an API key or a session authenticated the request (the policy of the key, or of the account\'s sessions, closest to refusing), and by lookups, certificates and exports (their per-address policy, and "<name>-account" for a caller with a key or a session).',
  ),
  "RateLimit-Policy": header(
    'The policies spent, each its quota and window in seconds, e.g. "minute";q=600;w=60, "day";q=100000;w=86400, "lookup";q=120;w=60, "lookup-account";q=120;w=60.',
  ),
};
const RETRY_AFTER = { "Retry-After": header("Seconds to wait before trying again.") };

/** One response per problem status, its `code` restricted to the codes this operation answers with it. */
function problemResponses(codes: ErrorCode[]): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: list.map((c) => `${c}: ${ERRORS[c].title}`).join("; "),
      headers: z.object(status === 429 ? { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS } : status === 503 ? RETRY_AFTER : {}),
      content: {
        "application/problem+json": {
          schema: ZProblem.extend({ status: z.literal(status), code: z.enum(list as [ErrorCode, ...ErrorCode[]]) }),
        },
      },
    };
  }
  return out;
}

const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The input schema's members as a zod object (a procedure without input has none). */
function inputShape(procedure: Procedure): Record<string, ZodType> {
  const { input } = procedureFacts(procedure);
  return input instanceof z.ZodObject ? (input.shape as Record<string, ZodType>) : {};
}

function pick(shape: Record<string, ZodType>, keys: string[], keep: boolean): Record<string, ZodType> {
  return Object.fromEntries(Object.entries(shape).filter(([k]) => keys.includes(k) === keep));
}

/** The body's schema: the input without the members the path supplies (keeping the object strict or not). */
function bodyOf(input: ZodType, params: string[]): ZodType {
  if (!(input instanceof z.ZodObject) || params.length === 0) return input;
  return input.omit(Object.fromEntries(params.map((p) => [p, true])) as Parameters<typeof input.omit>[0]);
}

function successContent(op: RestOperation, procedure: Procedure) {
  if (op.produces === "text/plain") return { "text/plain": { schema: z.string() } };
  if (op.produces === "image/svg+xml") return { "image/svg+xml": { schema: z.string() } };
  if (op.produces === "application/pdf") return { "application/pdf": { schema: z.string().meta({ contentMediaType: "application/pdf" }) } };
  if (op.produces === "application/zip") return { "application/zip": { schema: z.string().meta({ contentMediaType: "application/zip" }) } };
  if (op.produces === "application/octet-stream")
    return { "application/octet-stream": { schema: z.string().meta({ contentMediaType: "application/octet-stream" }) } };
  const schema = op.response ?? procedureFacts(procedure).output;
  if (!schema) throw new Error(`${op.method} ${op.path}: the procedure declares no output`);
  return { "application/json": { schema } };
}

/** An operation's description, saying when any web page may read it (server/gate/public-reads.mjs). */
function describe(op: RestOperation): string | undefined {
  const cors =
    op.method === "GET" && isPublicRead(op.path.replace(/\{[^}]+\}/g, "x"))
      ? "Readable by a page on any origin (CORS: Access-Control-Allow-Origin: *, without credentials)."
      : "";
  return [op.description, cors].filter(Boolean).join(" ") || undefined;
}

function operationOf({ op, scopes, procedure }: Operation): ZodOpenApiOperationObject {
  const shape = inputShape(procedure);
  const params = pathParams(op.path);
  const { input } = procedureFacts(procedure);
  const rest = pick(shape, params, false);
  const headers = Object.fromEntries((op.headers ?? []).map((h) => [h.name, header(h.description)]));
  const credentials: Record<string, string[]>[] = [{ apiKey: [...scopes] }, { sessionBearer: [...scopes] }, { sessionCookie: [...scopes] }];
  const responseHeaders = Object.fromEntries((op.responseHeaders ?? []).map((h) => [h.name, header(h.description)]));
  return {
    operationId: operationIdOf(op),
    summary: op.summary,
    ...(describe(op) ? { description: describe(op) } : {}),
    tags: [op.tag],
    security: op.auth === "required" ? credentials : op.auth === "optional" ? [{}, ...credentials] : [{}, { apiKey: [] }],
    requestParams: {
      ...(params.length ? { path: z.object(pick(shape, params, true)) } : {}),
      ...(op.input === "query" ? { query: z.object(rest) } : {}),
      ...(op.headers?.length ? { header: z.object(headers) } : {}),
    },
    ...(op.input === "body" && input
      ? { requestBody: { required: true, content: { "application/json": { schema: bodyOf(input, params) } } } }
      : {}),
    ...(op.input === "text" ? { requestBody: { required: true, content: { "text/plain": { schema: z.string() } } } } : {}),
    responses: {
      [String(op.status ?? 200)]: {
        description: op.summary,
        headers: z.object({ ...RATE_LIMIT_HEADERS, ...responseHeaders }),
        content: successContent(op, procedure),
      },
      ...problemResponses([...commonProblems(op, scopes.length > 0), ...(op.problems ?? [])]),
      ...Object.fromEntries(
        Object.entries(op.otherAnswers ?? {}).map(([status, a]) => [
          status,
          { description: a.description, content: { [a.contentType]: { schema: z.string() } } },
        ]),
      ),
    },
  };
}

/** A stable operationId: the method and the path's words, camelCased (POST /v1/consumer/mint → postConsumerMint). */
export function operationIdOf(op: Pick<RestOperation, "method" | "path">): string {
  const words = op.path
    .slice("/v1/".length)
    .replace(/\{(\w+)\}/g, "by-$1")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [op.method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join("");
}

/** The document of `api` (the whole router); `serverUrl` is the base URL it is served from. */
export function openApiDocument(api: AnyRouter, serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of restOperations(api)) {
    const item = (paths[operation.op.path] ??= {});
    item[operation.op.method.toLowerCase() as "get" | "post" | "patch"] = operationOf(operation);
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Hallmark API",
        version: "1",
        description: [
          "Content attestation and verification: Ed25519-signed attestations of SHA-256 hashes, recorded in an append-only Merkle transparency log that anyone can check without trusting Hallmark (C2SP tlog-checkpoint, tlog-tiles, tlog-witness, tlog-proof).",
          "",
          `Every error is RFC 9457 problem+json with a stable \`code\`. A method a path does not serve answers 405 method_not_allowed (with Allow), a path no operation serves 404 not_found. Bodies are JSON (UTF-8, at most 256 KiB), nesting arrays and objects at most ${MAX_JSON_DEPTH} levels deep: a deeper one is 422 validation_failed, its pointer naming the first value past the bound.`,
        ].join("\n"),
      },
      servers: [{ url: serverUrl }],
      tags: Object.entries(REST_TAGS).map(([name, description]) => ({ name, description })),
      paths,
      components: {
        // Every failure's shape; each operation narrows its code per status.
        schemas: { Problem: ZProblem },
        securitySchemes: {
          apiKey: {
            type: "apiKey",
            in: "header",
            name: "X-API-Key",
            description: "An API key (organisation or consumer). Its scopes are listed on each operation.",
          },
          sessionBearer: {
            type: "http",
            scheme: "bearer",
            description: "A consumer session: the session_token from POST /v1/consumer/login.",
          },
          sessionCookie: {
            type: "apiKey",
            in: "cookie",
            name: "next-auth.session-token",
            description: "The session cookie set by login (named __Secure-next-auth.session-token under https).",
          },
        },
      },
    },
    {
      // z.custom() schemas here are JSON objects passed through unchanged (payloads, ai_metadata).
      override: ({ jsonSchema, zodSchema }) => {
        if (zodSchema._zod.def.type === "custom" && Object.keys(jsonSchema).length === 0) jsonSchema.type = "object";
      },
      allowEmptySchema: { custom: true },
    },
  );
}
