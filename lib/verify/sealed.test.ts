import { describe, expect, it } from "vitest";
import { leafData } from "./attestation";
import { bytesToBase64, bytesToHex, concatBytes, utf8Encode } from "./encoding";
import { sha256Bytes } from "./merkle";
import {
  checkSealOpening,
  isSealedPayload,
  isUuidV4,
  SEALED_PAYLOAD_TYPE,
  SEALED_V1,
  SEALED_V2,
  type SealedType,
  sealCommitment,
  sealedCreatedAt,
  sealedPayload,
} from "./sealed";

const attestation = {
  id: "019a6c1e-9c3a-7d41-8a11-3f4b2c1d0e9f",
  issuer_id: "019a6c1e-9c3a-7d41-8a11-000000000001",
  kid: "z4Te_abc",
  payload: {
    category: "writing",
    content_hash: `sha256:${"4f".repeat(32)}`,
    protection_id: "019a6c1e-9c3a-7d41-8a11-000000000002",
    type: "hallmark.protection/v1",
  },
  created_at: "2026-11-26T12:00:05.987Z",
  signature: bytesToBase64(new Uint8Array(64).fill(9)),
};
const salt = new Uint8Array(32).map((_, i) => i);
const sealedLeaf = (type: SealedType) => ({
  ...attestation,
  ...(type === SEALED_V2 ? { id: "6f1d2c3b-4a59-4e87-9b0c-1d2e3f405162", created_at: "2026-11-26T12:00:05.000Z" } : {}),
  issuer_id: "019a6c1e-0000-7000-8000-00000000000a",
  kid: "seal",
  payload: sealedPayload(salt, attestation, type),
});
const opening = { salt: bytesToBase64(salt), attestation };
const codeOf = (f: () => void) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe("sealed entries", () => {
  it("are written as v2", () => expect(SEALED_PAYLOAD_TYPE).toBe("hallmark.sealed/v2"));

  for (const type of [SEALED_V1, SEALED_V2] as const) {
    const sealed = sealedLeaf(type);
    it(`${type}: commit with SHA-256 over the type, a zero byte, the salt and the attestation's leaf data`, () => {
      const expected = sha256Bytes(concatBytes(utf8Encode(type), new Uint8Array([0]), salt, leafData(attestation)));
      expect(bytesToHex(sealCommitment(salt, attestation, type))).toBe(bytesToHex(expected));
      expect(sealed.payload).toEqual({ commitment: `sha256:${bytesToHex(expected)}`, type });
      expect(isSealedPayload(sealed.payload)).toBe(true);
      expect(isSealedPayload({ ...sealed.payload, extra: 1 })).toBe(false);
      expect(isSealedPayload({ ...sealed.payload, type: "hallmark.sealed/v3" })).toBe(false);
    });

    it(`${type}: open with their salt and attestation, and with nothing else`, () => {
      expect(codeOf(() => checkSealOpening(sealed, opening))).toBe("ok");
      const otherSalt = salt.slice();
      otherSalt[31]! ^= 1;
      expect(codeOf(() => checkSealOpening(sealed, { ...opening, salt: bytesToBase64(otherSalt) }))).toBe("seal_opening_invalid");
      expect(codeOf(() => checkSealOpening(sealed, { ...opening, salt: bytesToBase64(salt.slice(0, 31)) }))).toBe("seal_opening_invalid");
      expect(codeOf(() => checkSealOpening(sealed, { ...opening, salt: "not base64!" }))).toBe("seal_opening_invalid");
      const otherHash = { ...attestation, payload: { ...attestation.payload, content_hash: `sha256:${"4e".repeat(32)}` } };
      expect(codeOf(() => checkSealOpening(sealed, { ...opening, attestation: otherHash }))).toBe("seal_opening_invalid");
      const otherSignature = { ...attestation, signature: bytesToBase64(new Uint8Array(64).fill(8)) };
      expect(codeOf(() => checkSealOpening(sealed, { ...opening, attestation: otherSignature }))).toBe("seal_opening_invalid");
      const flipped = {
        ...sealed,
        payload: { ...sealed.payload, commitment: sealed.payload.commitment.replace(/.$/, (c) => (c === "0" ? "1" : "0")) },
      };
      expect(codeOf(() => checkSealOpening(flipped, opening))).toBe("seal_opening_invalid");
      // The commitment's label is the type: the other version's type does not open it.
      const other = type === SEALED_V1 ? SEALED_V2 : SEALED_V1;
      expect(codeOf(() => checkSealOpening({ ...sealed, payload: { ...sealed.payload, type: other } }, opening))).toBe(
        "seal_opening_invalid",
      );
    });
  }

  it("v1: the sealed leaf's id and created_at are the attestation's own", () => {
    const sealed = sealedLeaf(SEALED_V1);
    expect(codeOf(() => checkSealOpening({ ...sealed, id: attestation.issuer_id }, opening))).toBe("seal_opening_invalid");
    expect(codeOf(() => checkSealOpening({ ...sealed, created_at: "2026-11-26T12:00:05.988Z" }, opening))).toBe("seal_opening_invalid");
  });

  it("v2: the sealed leaf's id is a random UUID of its own, its created_at the attestation's second", () => {
    const sealed = sealedLeaf(SEALED_V2);
    expect(isUuidV4(sealed.id)).toBe(true);
    // The attestation's own id, or an id that is not a random UUID, does not pass.
    expect(codeOf(() => checkSealOpening({ ...sealed, id: attestation.id }, opening))).toBe("seal_opening_invalid");
    const v4Attestation = { ...attestation, id: sealed.id };
    const v4Sealed = { ...sealed, payload: sealedPayload(salt, v4Attestation, SEALED_V2) };
    expect(codeOf(() => checkSealOpening(v4Sealed, { ...opening, attestation: v4Attestation }))).toBe("seal_opening_invalid");
    expect(codeOf(() => checkSealOpening({ ...sealed, id: "6F1D2C3B-4A59-4E87-9B0C-1D2E3F405162" }, opening))).toBe("seal_opening_invalid");
    expect(codeOf(() => checkSealOpening({ ...sealed, id: "6f1d2c3b-4a59-7e87-9b0c-1d2e3f405162" }, opening))).toBe("seal_opening_invalid");
    // The millisecond, another second, or a time not in Hallmark's form does not pass.
    for (const created_at of ["2026-11-26T12:00:05.987Z", "2026-11-26T12:00:04.000Z", "2026-11-26T12:00:06.000Z", "2026-11-26T12:00:05Z"])
      expect(
        codeOf(() => checkSealOpening({ ...sealed, created_at }, opening)),
        created_at,
      ).toBe("seal_opening_invalid");
    const unformatted = { ...attestation, created_at: "2026-11-26T12:00:05.9Z" };
    const unformattedSealed = { ...sealed, payload: sealedPayload(salt, unformatted, SEALED_V2) };
    expect(codeOf(() => checkSealOpening(unformattedSealed, { ...opening, attestation: unformatted }))).toBe("seal_opening_invalid");
  });

  it("v2: a time's second is its text up to the second, with .000Z", () => {
    expect(sealedCreatedAt("2026-11-26T12:00:05.987Z")).toBe("2026-11-26T12:00:05.000Z");
    expect(sealedCreatedAt("2026-11-26T23:59:59.999Z")).toBe("2026-11-26T23:59:59.000Z");
    expect(sealedCreatedAt("2026-11-26T12:00:05.000Z")).toBe("2026-11-26T12:00:05.000Z");
    expect(sealedCreatedAt("2026-11-26T12:00:05Z")).toBeNull();
    expect(sealedCreatedAt("2026-11-26T12:00:05.987+00:00")).toBeNull();
  });

  it("hide: two seals of one attestation with different salts share nothing", () => {
    const a = sealedPayload(salt, attestation).commitment;
    const b = sealedPayload(new Uint8Array(32).fill(1), attestation).commitment;
    expect(a).not.toBe(b);
  });
});
