import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { signAll } from "./sign-pool";

describe("signAll", () => {
  it("signs on the worker pool exactly what node:crypto signs here, in order, each with its own key", async () => {
    const keys = Array.from({ length: 3 }, (_, i) => ({ kid: `kid-${i}`, ...crypto.generateKeyPairSync("ed25519") }));
    const jobs = Array.from({ length: 700 }, (_, i) => {
      const k = keys[i % 3]!;
      return { kid: k.kid, privateKey: k.privateKey, message: crypto.randomBytes(50 + (i % 300)), publicKey: k.publicKey };
    });
    const sigs = await signAll(jobs);
    expect(sigs).toHaveLength(700);
    jobs.forEach((j, i) => {
      // Ed25519 is deterministic: the same key and message give the same signature on any thread.
      expect(Buffer.from(sigs[i]!)).toEqual(crypto.sign(null, j.message, j.privateKey));
      expect(crypto.verify(null, j.message, j.publicKey, sigs[i]!)).toBe(true);
    });
  });

  it("signs a few messages, and concurrent calls, correctly", async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
    const calls = [1, 64, 200, 1000].map((n) =>
      Array.from({ length: n }, () => ({ kid: "k", privateKey, message: crypto.randomBytes(100) })),
    );
    const results = await Promise.all(calls.map((jobs) => signAll(jobs)));
    results.forEach((sigs, c) => {
      expect(sigs).toHaveLength(calls[c]!.length);
      for (const [i, s] of sigs.entries()) expect(crypto.verify(null, calls[c]![i]!.message, publicKey, s)).toBe(true);
    });
  });
});
