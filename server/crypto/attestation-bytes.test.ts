import crypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTESTATION_PAYLOAD_TYPE, leafData, signingMessage } from "@/lib/verify/attestation";
import { bytesToHex } from "@/lib/verify/encoding";
import { canonicalJson } from "@/lib/verify/jcs";
import { leafHash, nodeHash } from "@/lib/verify/merkle";
import { MAX_LEAF_BYTES, MAX_PAYLOAD_BYTES } from "../domain/attestations";
import { attest, leafDataOf, PAYLOAD_TYPE, SIGNATURE_CHARS, signingMessageOf } from "./attestation-bytes.mjs";
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

describe("attest: a batch composed, signed and hashed in one pass", () => {
  const keys = Array.from({ length: 3 }, (_, i) => ({ kid: `kid-${i}`, ...crypto.generateKeyPairSync("ed25519") }));
  const joined = (values: string[]) => {
    const ends = new Uint32Array(values.length);
    values.reduce((at, v, i) => (ends[i] = at + v.length), 0);
    return { text: values.join(""), ends };
  };

  it("makes for each item lib/verify's signature, leaf hash and leaf size", () => {
    expect(PAYLOAD_TYPE).toBe(ATTESTATION_PAYLOAD_TYPE);
    const itemArb = fc.record({ f: fieldArb, key: fc.nat(2) });
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 12 }), (items) => {
        const fields = items.map(({ f, key }) => ({ ...f, kid: keys[key]!.kid }));
        const signers = [...new Set(fields.map((f) => `${f.issuer_id} ${f.kid}`))].map((s) => s.split(" ") as [string, string]);
        const ids = joined(fields.map((f) => f.id));
        const times = joined(fields.map((f) => f.created_at));
        const payloads = joined(fields.map((f) => canonicalJson(f.payload)));
        const out = attest(
          {
            signers,
            signerOf: Uint32Array.from(fields, (f) => signers.findIndex(([i, k]) => i === f.issuer_id && k === f.kid)),
            ids: ids.text,
            idEnds: ids.ends,
            createdAts: times.text,
            createdAtEnds: times.ends,
            payloads: payloads.text,
            payloadEnds: payloads.ends,
          },
          (kid) => keys.find((k) => k.kid === kid)!.privateKey,
        );
        expect(out.signatures).toHaveLength(SIGNATURE_CHARS * fields.length);
        fields.forEach((f, i) => {
          const signature = out.signatures.slice(SIGNATURE_CHARS * i, SIGNATURE_CHARS * (i + 1));
          const key = keys.find((k) => k.kid === f.kid)!;
          expect(crypto.verify(null, signingMessage(f), key.publicKey, Buffer.from(signature, "base64"))).toBe(true);
          const leaf = leafData({ ...f, signature });
          expect(out.leafSizes[i]).toBe(leaf.length);
          expect(Buffer.from(out.leafHashes.subarray(32 * i, 32 * (i + 1)))).toEqual(Buffer.from(leafHash(leaf)));
        });
      }),
      { numRuns: 100 },
    );
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
