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

type NextContext = { params: Promise<Record<string, string | string[]>> };

function json(value: unknown, status: number): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/**
 * A /v1 route handler: authenticate, read the input, call one tRPC procedure, and turn the
 * result or any error into the HTTP answer. No business rule lives here.
 */
export function apiRoute<T>(opts: RouteOptions, handler: (args: RouteArgs) => Promise<T>) {
  return async (req: Request, ctx: NextContext): Promise<Response> => {
    const requestId = crypto.randomUUID();
    // Rate-limit headers are set on every answer to an authenticated request, errors included.
    const limitHeaders: Record<string, string> = {};
    try {
      const principal = await authenticate(req, opts.auth, limitHeaders);
      const raw = ctx?.params ? await ctx.params : {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      for (const [name, what] of Object.entries(opts.ids ?? {})) {
        if (!isUuid(params[name] ?? "")) throw notFound(what);
      }
      const body = opts.body ? await readJsonBody(req) : undefined;
      const query = new URL(req.url).searchParams;
      const result = await handler({ caller: createCaller({ principal }), principal, body, params, query, req });
      return withHeaders(result instanceof Response ? result : json(result, opts.status ?? 200), limitHeaders);
    } catch (err) {
      return withHeaders(errorToResponse(err, opts.body ? "body" : "query", requestId), limitHeaders);
    }
  };
}
