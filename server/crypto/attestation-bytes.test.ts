import crypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leafData, signingMessage } from "@/lib/verify/attestation";
import { bytesToHex } from "@/lib/verify/encoding";
import { canonicalJson } from "@/lib/verify/jcs";
import { leafHash, nodeHash } from "@/lib/verify/merkle";
import { MAX_LEAF_BYTES, MAX_PAYLOAD_BYTES } from "../domain/leaf-bounds";
import { leafDataOf, signingMessageOf } from "./attestation-bytes";
import { leafHashNode, nodeHashNode, toHex } from "./hash";

const payloadArb = fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }).map(
  // JSON round trip: the payload as a request body would deliver it (no -0, no undefined).
  (v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>,
);
const fieldArb = fc.record({
  id: fc.uuid(),
  issuer_id: fc.uuid(),
  kid: fc.string({ unit: "grapheme" }),
  created_at: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(8.64e15) }).map((d) => d.toISOString()),
  payload: payloadArb,
  signature: fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => Buffer.from(b).toString("base64")),
});

describe("attestation bytes composed from the canonical payload", () => {
  it("equal lib/verify's signingMessage, leaf data and leaf hash for any attestation", () => {
    fc.assert(
      fc.property(fieldArb, (f) => {
        const c = { ...f, payloadJcs: canonicalJson(f.payload) };
        expect(Buffer.from(signingMessageOf(c))).toEqual(Buffer.from(signingMessage(f)));
        expect(leafDataOf(c, f.signature)).toEqual(Buffer.from(leafData(f)));
        expect(Buffer.from(leafHashNode(leafDataOf(c, f.signature)))).toEqual(Buffer.from(leafHash(leafData(f))));
      }),
      { numRuns: 400 },
    );
  });

  it("make a leaf of exactly MAX_LEAF_BYTES from the largest payload allowed, whatever the ids, key and time", () => {
    const kid = Buffer.alloc(32, 7).toString("base64url"); // an RFC 7638 thumbprint: 43 characters
    for (const created_at of [new Date(0).toISOString(), new Date().toISOString()]) {
      const a = {
        id: crypto.randomUUID(),
        issuer_id: crypto.randomUUID(),
        kid,
        created_at,
        payloadJcs: `{"b":"${"x".repeat(MAX_PAYLOAD_BYTES - 8)}"}`,
      };
      expect(leafDataOf(a, Buffer.alloc(64, 1).toString("base64")).length).toBe(MAX_LEAF_BYTES);
    }
  });

  it("change when any signed field changes", () => {
    const f = {
      id: crypto.randomUUID(),
      issuer_id: crypto.randomUUID(),
      kid: "k",
      created_at: new Date().toISOString(),
      payloadJcs: '{"a":1}',
    };
    const base = signingMessageOf(f);
    for (const key of ["id", "issuer_id", "kid", "created_at"] as const) {
      expect(signingMessageOf({ ...f, [key]: f[key] + "x" }).equals(base)).toBe(false);
    }
    expect(signingMessageOf({ ...f, payloadJcs: '{"a":2}' }).equals(base)).toBe(false);
  });
});

describe("node:crypto RFC 9162 hashing", () => {
  it("agrees with the isomorphic reference", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (data, other) => {
        expect(leafHashNode(data)).toEqual(leafHash(data));
        const l = leafHash(data);
        expect(nodeHashNode(l, other)).toEqual(nodeHash(l, other));
      }),
    );
  });

  it("writes hex as the isomorphic reference does, for views into larger buffers too", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(8), fc.nat(8), (data, lo, cut) => {
        const view = data.subarray(Math.min(lo, data.length), Math.max(Math.min(lo, data.length), data.length - cut));
        expect(toHex(view)).toBe(bytesToHex(view));
      }),
    );
  });
});
