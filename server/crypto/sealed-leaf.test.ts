import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leafData } from "@/lib/verify/attestation";
import { canonicalJson } from "@/lib/verify/jcs";
import { checkSealOpening, SEALED_V1, SEALED_V2, sealedCreatedAt, sealedPayload } from "@/lib/verify/sealed";
import { leafDataOf } from "./attestation-bytes.mjs";
import { loggedLeafDataOf, newSealedLeafId, sealedFields, storedSeal } from "./sealed-leaf";

const fieldArb = fc.record({
  id: fc.uuid(),
  issuer_id: fc.uuid(),
  kid: fc.string({ unit: "grapheme" }),
  created_at: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31T23:59:59.999Z") }).map((d) => d.toISOString()),
  payload: fc
    .dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
    .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>),
  signature: fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => Buffer.from(b).toString("base64")),
});
const sealerArb = fc.record({
  /** A v2 leaf's own id, or none (v1). */
  id: fc.option(
    fc.constant(null).map(() => newSealedLeafId()),
    { nil: undefined },
  ),
  issuer_id: fc.uuid(),
  kid: fc.string({ minLength: 1 }),
  salt: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  signature: fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => Buffer.from(b).toString("base64")),
});

describe("the server's sealed leaf (node:crypto, composed strings)", () => {
  it("equals lib/verify's, v1 and v2: the same commitment and the same leaf data, which the opening opens", () => {
    fc.assert(
      fc.property(fieldArb, sealerArb, (a, s) => {
        const inner = { ...a, payloadJcs: canonicalJson(a.payload) };
        const fields = sealedFields(inner, leafDataOf(inner, a.signature), s, s.salt);
        const v2 = s.id !== undefined;
        const reference = {
          id: s.id ?? a.id,
          issuer_id: s.issuer_id,
          kid: s.kid,
          payload: sealedPayload(s.salt, a, v2 ? SEALED_V2 : SEALED_V1),
          created_at: v2 ? sealedCreatedAt(a.created_at)! : a.created_at,
          signature: s.signature,
        };
        expect(fields.payloadJcs).toBe(canonicalJson(reference.payload));
        const column = JSON.stringify({
          ...(v2 ? { id: s.id } : {}),
          issuer_id: s.issuer_id,
          kid: s.kid,
          salt: Buffer.from(s.salt).toString("base64"),
          signature: s.signature,
        });
        expect(loggedLeafDataOf(inner, a.signature, column)).toEqual(Buffer.from(leafData(reference)));
        expect(loggedLeafDataOf(inner, a.signature, null)).toEqual(Buffer.from(leafData(a)));
        expect(storedSeal(inner, a.signature, column)).toEqual({ leaf: reference, salt: Buffer.from(s.salt).toString("base64") });
        expect(() => checkSealOpening(reference, { salt: Buffer.from(s.salt).toString("base64"), attestation: a })).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
