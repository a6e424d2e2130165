import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { attestAll, signAll } from "./sign-pool";
import { SIGNATURE_CHARS } from "./attestation-bytes.mjs";
import { leafData, signingMessage } from "@/lib/verify/attestation";
import { leafHash } from "@/lib/verify/merkle";

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

describe("attestAll", () => {
  const keys = Array.from({ length: 3 }, (_, i) => ({ kid: `kid-${i}`, ...crypto.generateKeyPairSync("ed25519") }));
  const jobsOf = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const k = keys[i % 3]!;
      return {
        id: crypto.randomUUID(),
        issuerId: `issuer-${i % 2}`,
        kid: k.kid,
        privateKey: k.privateKey,
        publicKey: k.publicKey,
        createdAt: new Date(Date.now() + i).toISOString(),
        payloadJcs: JSON.stringify({ n: i, s: "\u00e9\u{1F600}".repeat(i % 5) }),
      };
    });

  it("makes on the worker pool, in order, what lib/verify makes of each attestation, for large and small batches at once", async () => {
    const calls = [1, 63, 64, 700].map(jobsOf);
    const results = await Promise.all(calls.map((jobs) => attestAll(jobs)));
    results.forEach((out, c) => {
      const jobs = calls[c]!;
      expect(out.signatures).toHaveLength(SIGNATURE_CHARS * jobs.length);
      expect(out.leafHashes).toHaveLength(32 * jobs.length);
      jobs.forEach((j, i) => {
        const f = { id: j.id, issuer_id: j.issuerId, kid: j.kid, created_at: j.createdAt, payload: JSON.parse(j.payloadJcs) };
        const signature = out.signatures.slice(SIGNATURE_CHARS * i, SIGNATURE_CHARS * (i + 1));
        expect(crypto.verify(null, signingMessage(f), j.publicKey, Buffer.from(signature, "base64"))).toBe(true);
        const leaf = leafData({ ...f, signature });
        expect(out.leafSizes[i]).toBe(leaf.length);
        expect(Buffer.from(out.leafHashes.subarray(32 * i, 32 * (i + 1)))).toEqual(Buffer.from(leafHash(leaf)));
      });
    });
  });
});
