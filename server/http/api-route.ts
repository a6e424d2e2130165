import "server-only";
import crypto from "node:crypto";
import { createCaller } from "../api/root";
import { authenticateApiKey, type ApiKeyPrincipal } from "../domain/api-keys";
import { AppError, notFound } from "../domain/errors";
import { isUuid } from "../domain/ids";
import { readJsonBody } from "./body";
import { errorToResponse } from "./errors";

type Caller = ReturnType<typeof createCaller>;

export interface RouteArgs {
  caller: Caller;
  principal: ApiKeyPrincipal | null;
  body: unknown;
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface RouteOptions {
  /** "required": a valid X-API-Key must be sent. "optional": public, but a key sent must be valid. */
  auth: "required" | "optional";
  /** Read and parse a JSON body. */
  body?: boolean;
  /** Success status (default 200). */
  status?: number;
  /** Path parameters that are ids, with the name of what they identify: a non-UUID is simply not found. */
  ids?: Record<string, string>;
}

type NextContext = { params: Promise<Record<string, string | string[]>> };

async function authenticate(req: Request, mode: RouteOptions["auth"]): Promise<ApiKeyPrincipal | null> {
  const key = req.headers.get("x-api-key");
  if (key === null || key === "") {
    if (mode === "required") throw new AppError("unauthenticated", "Send an API key in the X-API-Key header.");
    return null;
  }
  return authenticateApiKey(key.trim());
}

function json(value: unknown, status: number): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

/**
 * A /v1 route handler: authenticate, read the input, call one tRPC procedure, and turn the
 * result or any error into the HTTP answer. No business rule lives here.
 */
export function apiRoute<T>(opts: RouteOptions, handler: (args: RouteArgs) => Promise<T>) {
  return async (req: Request, ctx: NextContext): Promise<Response> => {
    const requestId = crypto.randomUUID();
    try {
      const principal = await authenticate(req, opts.auth);
      const raw = ctx?.params ? await ctx.params : {};
      const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      for (const [name, what] of Object.entries(opts.ids ?? {})) {
        if (!isUuid(params[name] ?? "")) throw notFound(what);
      }
      const body = opts.body ? await readJsonBody(req) : undefined;
      const query = new URL(req.url).searchParams;
      const result = await handler({ caller: createCaller({ principal }), principal, body, params, query });
      return result instanceof Response ? result : json(result, opts.status ?? 200);
    } catch (err) {
      return errorToResponse(err, opts.body ? "body" : "query", requestId);
    }
  };
}
