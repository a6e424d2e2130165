// The words every form shows for a failed request, from answers over real HTTP: a server that
// answers as Hallmark's gate, its tRPC endpoint or a proxy in front would, and one that hangs up.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, httpBatchLink, httpLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  errorInfo,
  failureMessage,
  fetchOrFail,
  failureOfResponse,
  NETWORK_MESSAGE,
  retryAfterSeconds,
  trpcFetch,
  waitInWords,
} from "./request-failure";

const problem = (code: string, status: number, detail: string) =>
  JSON.stringify({ type: `urn:hallmark:problem:${code}`, title: "t", status, detail, code });
const trpcError = (code: string | null, httpStatus: number, message: string) =>
  JSON.stringify({ error: { message, code: -32600, data: { code: "X", httpStatus, appCode: code, fieldErrors: null } } });

/** Path → how the server answers it. */
const ANSWERS: Record<string, (res: http.ServerResponse) => void> = {
  "/proxy-502": (res) => res.writeHead(502, { "content-type": "text/html" }).end("<html><body>Bad Gateway</body></html>"),
  "/proxy-503-wait": (res) => res.writeHead(503, { "content-type": "text/html", "retry-after": "120" }).end("<html>down</html>"),
  "/gate-403": (res) =>
    res
      .writeHead(403, { "content-type": "application/problem+json" })
      .end(
        problem(
          "cross_origin_request",
          403,
          'This request came from "http://127.0.0.1:3000"; Hallmark acts for a session only on requests from its own pages (http://localhost:3000).',
        ),
      ),
  "/trpc-429": (res) =>
    res
      .writeHead(429, { "content-type": "application/json", "retry-after": "900" })
      .end(trpcError("too_many_attempts", 429, "Too many failed logins.")),
  "/trpc-429-says-when": (res) =>
    res
      .writeHead(429, { "content-type": "application/json", "retry-after": "40" })
      .end(trpcError("rate_limited", 429, "This endpoint allows 120 requests per 60 s from one address; retry in 40 s.")),
  "/trpc-500": (res) => res.writeHead(500, { "content-type": "application/json" }).end(trpcError(null, 500, "An internal error occurred.")),
  "/trpc-503": (res) =>
    res
      .writeHead(503, { "content-type": "application/json", "retry-after": "1" })
      .end(trpcError("service_unavailable", 503, "Logging in is unavailable for a moment; try again shortly.")),
  "/trpc-409": (res) => res.writeHead(409, { "content-type": "application/json" }).end(trpcError("conflict", 409, "That name is taken.")),
  "/hang-up": (res) => res.socket?.destroy(),
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.replace(/\/(x|x,y)$/, "");
    (ANSWERS[path] ?? ((r) => r.writeHead(404).end()))(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** What a form would show for a tRPC mutation `x` sent to `path` (alone, or in a batch). */
async function trpcFailure(path: string, batch = false) {
  const link = batch ? httpBatchLink({ url: `${base}${path}`, fetch: trpcFetch }) : httpLink({ url: `${base}${path}`, fetch: trpcFetch });
  // A router-less client, called by path.
  const client = createTRPCClient<any>({ links: [link] }) as any;
  try {
    await client.x.mutate({});
  } catch (err) {
    return errorInfo(err);
  }
  throw new Error("the call did not fail");
}

describe("errorInfo for tRPC calls", () => {
  it("says a network failure in words, not the browser's 'Failed to fetch'", async () => {
    expect(await trpcFailure("/hang-up")).toEqual({ message: NETWORK_MESSAGE, code: null, retryAfter: null });
    expect(await trpcFailure("/hang-up", true)).toMatchObject({ message: NETWORK_MESSAGE });
  });

  it("says a proxy's 5xx page with its status, and its wait when it gives one", async () => {
    expect((await trpcFailure("/proxy-502")).message).toBe(
      "Something went wrong on the server's side (HTTP 502). Nothing was lost: try again in a moment.",
    );
    expect((await trpcFailure("/proxy-503-wait", true)).message).toBe(
      "Something went wrong on the server's side (HTTP 503). Nothing was lost: try again in 2 minutes.",
    );
    expect((await trpcFailure("/trpc-500")).message).toContain("(HTTP 500)");
  });

  it("shows the gate's problem+json refusal in its own words, with its code", async () => {
    const info = await trpcFailure("/gate-403");
    expect(info.code).toBe("cross_origin_request");
    expect(info.message).toContain("(http://localhost:3000)");
  });

  it("says how long to wait on a 429, once", async () => {
    expect(await trpcFailure("/trpc-429")).toEqual({
      message: "Too many failed logins. Try again in 15 minutes.",
      code: "too_many_attempts",
      retryAfter: 900,
    });
    expect((await trpcFailure("/trpc-429-says-when")).message).toBe(
      "This endpoint allows 120 requests per 60 s from one address; retry in 40 s.",
    );
  });

  it("keeps Hallmark's own words for its refusals and its 503", async () => {
    expect(await trpcFailure("/trpc-409")).toMatchObject({ message: "That name is taken.", code: "conflict" });
    expect((await trpcFailure("/trpc-503")).message).toBe("Logging in is unavailable for a moment; try again shortly.");
  });
});

describe("fetchOrFail and failureOfResponse", () => {
  it("turns no answer into a RequestFailure, and a failed answer into words", async () => {
    await expect(fetchOrFail(`${base}/hang-up`)).rejects.toMatchObject({ name: "RequestFailure", status: null, message: NETWORK_MESSAGE });
    const refused = await failureOfResponse(await fetchOrFail(`${base}/gate-403`));
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 403, code: "cross_origin_request" });
    const limited = await failureOfResponse(await fetchOrFail(`${base}/trpc-429`));
    expect({ message: limited.message, retryAfter: limited.retryAfter }).toEqual({
      message: "Too many failed logins. Try again in 15 minutes.",
      retryAfter: 900,
    });
  });
});

describe("the words", () => {
  it.each([
    [1, "in 1 second"],
    [89, "in 89 seconds"],
    [90, "in 2 minutes"],
    [900, "in 15 minutes"],
    [5400, "in 2 hours"],
    [86_400, "in 24 hours"],
    [5 * 86_400, "in 5 days"],
  ])("waits %d s as %j", (seconds, words) => expect(waitInWords(seconds)).toBe(words));

  it("reads Retry-After as seconds or as a date", () => {
    expect(retryAfterSeconds("120")).toBe(120);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(retryAfterSeconds("soon")).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });

  it("never leaves a status without words", () => {
    for (const status of [400, 401, 403, 404, 413, 429, 500, 502, 503, 504]) {
      const message = failureMessage({ status, code: null, detail: null, retryAfter: null });
      expect(message.length, String(status)).toBeGreaterThan(20);
    }
    expect(failureMessage({ status: 429, code: "rate_limited", detail: null, retryAfter: 30 })).toBe(
      "Too many requests. Try again in 30 seconds.",
    );
  });
});
