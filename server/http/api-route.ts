import "server-only";
import crypto from "node:crypto";
import { createCaller } from "../api/root";
import { notFound } from "../domain/errors";
import type { Principal } from "../domain/principal";
import { authenticate } from "./authenticate";
import { isUuid } from "../domain/ids";
import { readJsonBody } from "./body";
import { errorToResponse } from "./errors";

type Caller = ReturnType<typeof createCaller>;

export interface RouteArgs {
  caller: Caller;
  principal: Principal | null;
  body: unknown;
  req: Request;
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface RouteOptions {
  /** "required": a valid API key or session must be sent. "optional": public, but credentials sent must be valid. */
  auth: "required" | "optional";
  /** Read and parse a JSON body. */
  body?: boolean;
  /** Success status (default 200). */
  status?: number;
  /** Path parameters that are ids, with the name of what they identify: a non-UUID is simply not found. */
  ids?: Record<string, string>;
}

type NextContext = { params: Promise<Params> };

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" } as const;

/** The answer, with the rate-limit headers set in one go (a hot path: no later Headers.set). */
function json(value: unknown, status: number, extra: Record<string, string>): Response {
  return new Response(JSON.stringify(value), { status, headers: { ...JSON_HEADERS, ...extra } });
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const k in headers) res.headers.set(k, headers[k]!);
  return res;
}

type Params = Record<string, string | string[]>;

/** Path parameters, a catch-all's segments joined with "/". */
function flatParams(raw: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k]!;
    out[k] = Array.isArray(v) ? v.join("/") : v;
  }
  return out;
}

/**
 * A /v1 route handler: authenticate, read the input, call one tRPC procedure, and turn the
 * result or any error into the HTTP answer. No business rule lives here. Every request
 * passes through it, so it does only what the route asks for (the query string is parsed
 * when read, a request id is made only for a failure).
 */
export function apiRoute<T>(opts: RouteOptions, handler: (args: RouteArgs) => Promise<T>) {
  const ids = Object.entries(opts.ids ?? {});
  const status = opts.status ?? 200;
  return async (req: Request, ctx: NextContext): Promise<Response> => {
    // Rate-limit headers are set on every answer to an authenticated request, errors included.
    const limitHeaders: Record<string, string> = {};
    try {
      const principal = await authenticate(req, opts.auth, limitHeaders);
      const params = ctx?.params ? flatParams(await ctx.params) : {};
      for (const [name, what] of ids) {
        if (!isUuid(params[name] ?? "")) throw notFound(what);
      }
      const body = opts.body ? await readJsonBody(req) : undefined;
      let query: URLSearchParams | undefined;
      const result = await handler({
        caller: createCaller({ principal }),
        principal,
        body,
        params,
        req,
        get query() {
          return (query ??= new URL(req.url).searchParams);
        },
      });
      return result instanceof Response ? withHeaders(result, limitHeaders) : json(result, status, limitHeaders);
    } catch (err) {
      return withHeaders(errorToResponse(err, opts.body ? "body" : "query", crypto.randomUUID()), limitHeaders);
    }
  };
}
