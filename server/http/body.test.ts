// A client that goes away while sending its body: the read fails, and the answer (which nobody
// will receive) is a 499 that is not logged as the server's failure; a whole body still parses.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientClosedRequest, readJsonBody } from "./body";
import { logger } from "../observability/logger.mjs";
import { errorToResponse } from "./errors";

const headers = { "content-type": "application/json" };

/** A request whose body sends one chunk and then fails, as a reset connection does. */
function abortedRequest(): Request {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      sent = true;
      controller.enqueue(new TextEncoder().encode('{"issuer_id": "'));
    },
  });
  return new Request("http://localhost/v1/attestations", { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

afterEach(() => vi.restoreAllMocks());

describe("request bodies", () => {
  it("parse when they arrive whole", async () => {
    const req = new Request("http://localhost/v1/x", { method: "POST", headers, body: '{"a": [1, "b"]}' });
    expect(await readJsonBody(req)).toEqual({ a: [1, "b"] });
  });

  it("cut off by the client fail as ClientClosedRequest, keeping the cause", async () => {
    const err = await readJsonBody(abortedRequest()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientClosedRequest);
    expect(((err as Error).cause as { code?: string }).code).toBe("ECONNRESET");
  });

  it("cut off by the client answer 499 and log nothing, while a real failure is logged as a 500", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const req = (id: string) => new Request("http://x/", { headers: { "x-request-id": id } });
    const err = await readJsonBody(abortedRequest()).catch((e: unknown) => e);
    const res = errorToResponse(err, "body", req("req-1"));
    expect(res.status).toBe(499);
    expect(logged).not.toHaveBeenCalled();
    const failed = errorToResponse(new Error("bug"), "body", req("req-2"));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: "internal_error", request_id: "req-2" });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0]![0]).toMatchObject({ req_id: "req-2" });
  });
});
