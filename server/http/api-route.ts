import "server-only";
import type { inferProcedureOutput } from "@trpc/server";
import { createContext } from "../api/context";
import type { RestOperation } from "../api/rest-operation";
import { callProcedure, type Procedure, procedureFacts } from "../api/trpc-adapter";
import { AppError } from "../errors";
import { authenticate } from "./authenticate";
import { readJsonBody, readTextBody } from "./body";
import { errorToResponse } from "./errors";
import { noteRequest } from "../observability/requests.mjs";

/** What a route hands back for apiRoute to send: a JSON value, text, bytes or a stream of bytes, with its status and headers. */
export interface RouteResult {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}

type NextContext = { params: Promise<Params> };
type Params = Record<string, string | string[]>;
type RestProcedure = Procedure;

const TEXT = "text/plain; charset=utf-8";

/** Path parameters, a catch-all's segments joined with "/". */
function flatParams(raw: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k]!;
    out[k] = Array.isArray(v) ? v.join("/") : v;
  }
  return out;
}

/** The procedure's input: a JSON body's members or the query's parameters, with the path's parameters. */
function inputOf(body: unknown, params: Record<string, string>): unknown {
  const names = Object.keys(params);
  if (names.length === 0) return body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  // A path parameter is not a body member: sending one is an unknown field, never an override.
  const sent = names.filter((n) => Object.hasOwn(body, n));
  if (sent.length > 0) {
    throw new AppError(
      "validation_failed",
      "The request body failed validation; see errors.",
      sent.map((n) => ({ pointer: `/${n}`, detail: "is not a known field" })),
    );
  }
  return { ...body, ...params };
}

/**
 * The Response for a result: JSON unless the body is text, bytes or a stream of bytes; the
 * rate-limit headers set in one go (a hot path).
 */
function respond(op: RestOperation, result: RouteResult, limitHeaders: Record<string, string>): Response {
  const { body } = result;
  const raw = typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream;
  const type = typeof body === "string" ? TEXT : raw ? "application/octet-stream" : "application/json";
  const headers = { "content-type": type, "cache-control": "no-store", ...result.headers, ...limitHeaders };
  const payload = raw ? (body as BodyInit) : JSON.stringify(body);
  return new Response(payload, { status: result.status ?? op.status ?? 200, headers });
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const k in headers) res.headers.set(k, headers[k]!);
  return res;
}

/**
 * The /v1 route handler of a procedure, as its `rest` meta declares it: authenticate, assemble
 * the input (path parameters plus the JSON body or the query string), call the procedure, and
 * turn its output, through `edge` when the route adds headers or reshapes it, or any error into
 * the HTTP answer. The only place a /v1 Response is built; no business rule lives here.
 */
export function apiRoute<P extends RestProcedure>(
  procedure: P,
  edge?: (output: inferProcedureOutput<P>, req: Request) => RouteResult | Promise<RouteResult>,
): (req: Request, ctx: NextContext) => Promise<Response> {
  const op = procedureFacts(procedure).meta?.rest;
  if (!op) throw new Error("apiRoute: the procedure has no rest meta");
  return async (req, ctx) => {
    // Rate-limit headers (a key's, or a public endpoint's per client) are set on every answer, errors included.
    const limitHeaders: Record<string, string> = {};
    const requestId = req.headers.get("x-request-id");
    noteRequest(requestId, { route: op.path });
    try {
      const principal = await authenticate(req, op.auth, limitHeaders);
      if (principal) noteRequest(requestId, { tenant: principal.tenantId });
      const params = ctx?.params ? flatParams(await ctx.params) : {};
      const sent =
        op.input === "body"
          ? await readJsonBody(req, op.maxBodyBytes)
          : op.input === "query"
            ? Object.fromEntries(new URL(req.url).searchParams)
            : op.input === "text"
              ? { body: await readTextBody(req, op.maxBodyBytes) }
              : {};
      const raw = inputOf(sent, params);
      const output = (await callProcedure(procedure, {
        ctx: createContext(principal, req.headers, limitHeaders),
        input: raw,
        path: op.path,
        signal: req.signal,
      })) as inferProcedureOutput<P>;
      return respond(op, edge ? await edge(output, req) : { body: output }, limitHeaders);
    } catch (err) {
      return withHeaders(errorToResponse(err, op.input === "body" ? "body" : "query", req), limitHeaders);
    }
  };
}
