import "server-only";
import { isUnbatchable, MAX_BATCH_CALLS } from "../api/batching";
import { AppError } from "../errors";
import { readBodyText } from "./body";
import { parseJsonText } from "./json-text";

const PREFIX = "/api/trpc/";

function parseQueryInput(input: string): void {
  try {
    parseJsonText(input);
  } catch (err) {
    if (!(err instanceof AppError && err.code === "malformed_json")) throw err;
    throw new AppError("invalid_parameter", "A query parameter is not valid; see errors.", [{ pointer: "/input", detail: "is not JSON" }]);
  }
}

/**
 * Screens a request to /api/trpc before tRPC sees it, and returns the request tRPC should get:
 * - at most MAX_BATCH_CALLS calls, and an account call (isUnbatchable) only alone;
 * - a POST body is JSON, read under /v1's size cap;
 * - the input (a POST body or GET's `input` parameter) goes through the same parse as /v1
 *   bodies (parseJsonText), so a string that is not well-formed Unicode is refused with a
 *   pointer before any procedure runs.
 * Failures are AppErrors (the route answers them as problem+json).
 */
export async function screenTrpcRequest(req: Request): Promise<Request> {
  const url = new URL(req.url);
  const calls = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length).split(",") : [];
  if (url.searchParams.get("batch") === "1" && calls.length > 1) {
    if (calls.length > MAX_BATCH_CALLS) {
      throw new AppError("invalid_parameter", `A batch carries at most ${MAX_BATCH_CALLS} calls; this one has ${calls.length}.`);
    }
    const alone = calls.find(isUnbatchable);
    if (alone) throw new AppError("invalid_parameter", `${alone} is never batched: send it alone.`);
  }
  if (req.method === "GET") {
    const input = url.searchParams.get("input");
    if (input !== null) parseQueryInput(input);
    return req;
  }
  if (req.method !== "POST") return req;
  // tRPC's parser takes application/json only (not other +json types).
  if ((req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase() !== "application/json") {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const text = await readBodyText(req);
  if (text !== "") parseJsonText(text);
  return new Request(req.url, { method: "POST", headers: req.headers, body: text, signal: req.signal });
}
