// Which key checks a checkpoint, from what GET /v1/log says: after a key rotation each log
// (shard) of the chain has its own, named by its origin.
import { describe, expect, it } from "vitest";
import { logKeyForOrigin } from "./log-key";

const info = {
  verifier_key: "example.org/log/1+22222222+AQ==",
  public_key: "-----BEGIN PUBLIC KEY-----",
  shards: [
    { origin: "example.org/log", verifier_key: "example.org/log+11111111+AQ==" },
    { origin: "example.org/log/1", verifier_key: "example.org/log/1+22222222+AQ==" },
  ],
};

describe("logKeyForOrigin", () => {
  it("takes the key of the log the checkpoint's origin names", () => {
    expect(logKeyForOrigin(info, "example.org/log")).toBe("example.org/log+11111111+AQ==");
    expect(logKeyForOrigin(info, "example.org/log/1")).toBe("example.org/log/1+22222222+AQ==");
  });

  it("falls back to the current key for an origin it does not list, no origin, or a server without shards", () => {
    expect(logKeyForOrigin(info, "elsewhere/log")).toBe(info.verifier_key);
    expect(logKeyForOrigin(info, undefined)).toBe(info.verifier_key);
    expect(logKeyForOrigin({ public_key: "pem" }, "example.org/log")).toBe("pem");
    expect(logKeyForOrigin(null, "example.org/log")).toBeUndefined();
  });
});
