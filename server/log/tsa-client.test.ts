// The TSA client against a real TSA (OpenSSL's, e2e/tsa/test-tsa.ts) over HTTP: a granted token
// that the verifier accepts, and a TsaError for each way a TSA can fail; and the test TSA's own
// transport answers, so the peer is known to speak the protocol the client relies on.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestTsa } from "@/e2e/tsa/test-tsa";
import { parseCertificates, verifyTimestampToken } from "@/lib/verify/rfc3161";
import { requestTimestamp, TsaError } from "./tsa-client";

let tsa: TestTsa;
let url: string;

beforeAll(async () => {
  tsa = new TestTsa();
  url = await tsa.listen();
});
afterAll(() => tsa.close());

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(TsaError);
    return (err as Error).message;
  }
  throw new Error("the request succeeded");
};

describe("the TSA client", () => {
  it("gets a token over the bytes' SHA-256 that verifies against the TSA's root", async () => {
    tsa.mode = "ok";
    const data = new TextEncoder().encode("log.example\n7\nAAAA\n");
    const token = await requestTimestamp(url, data);
    const r = await verifyTimestampToken(token, data, parseCertificates(tsa.rootPem));
    expect(r.tsa).toBe("Hallmark Test TSA");
    expect(Math.abs(r.genTime.getTime() - Date.now())).toBeLessThan(5_000);
    expect(tsa.seen.granted).toBeGreaterThan(0);
  });

  it("fails with the reason when the TSA is down, refuses, answers nonsense or stamps other bytes", async () => {
    const data = randomBytes(20);
    tsa.mode = "down";
    expect(await failure(requestTimestamp(url, data))).toBe("the TSA answered HTTP 503");
    tsa.mode = "reject";
    expect(await failure(requestTimestamp(url, data))).toBe(
      "the TSA refused (status 2: this TSA accepts no request now; unacceptedPolicy)",
    );
    tsa.mode = "garbage";
    expect(await failure(requestTimestamp(url, data))).toMatch(/^the TSA's answer is not a TimeStampResp/);
    tsa.mode = "wrong-imprint";
    expect(await failure(requestTimestamp(url, data))).toBe("the TSA's token is over other bytes than those sent");
    tsa.mode = "ok";
    expect(await failure(requestTimestamp("http://127.0.0.1:9/", data, 2_000))).toMatch(/^the TSA did not answer/);
  });

  it("is a peer that answers RFC 3161's transport: 405, 415, 413, and a badDataFormat rejection", async () => {
    tsa.mode = "ok";
    const get = await fetch(url);
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    const type = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(type.status).toBe(415);
    const big = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query" },
      body: randomBytes(64 * 1024),
    });
    expect(big.status).toBe(413);
    const bad = await fetch(url, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: "nonsense" });
    expect(bad.status).toBe(200);
    expect(bad.headers.get("content-type")).toBe("application/timestamp-reply");
    const body = new Uint8Array(await bad.arrayBuffer());
    // TimeStampResp { status { status 2 (rejection) ... failInfo badDataFormat (bit 5) } }, no token.
    expect(Buffer.from(body).toString("hex")).toMatch(/^30..30..020102/);
  });
});
