import { describe, expect, it } from "vitest";
import { leafData } from "./attestation";
import { bytesToBase64, bytesToHex, concatBytes, utf8Encode } from "./encoding";
import { sha256Bytes } from "./merkle";
import { checkSealOpening, isSealedPayload, sealCommitment, sealedPayload, SEALED_PAYLOAD_TYPE } from "./sealed";

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
  created_at: "2026-11-26T12:00:00.000Z",
  signature: bytesToBase64(new Uint8Array(64).fill(9)),
};
const salt = new Uint8Array(32).map((_, i) => i);
const sealed = {
  ...attestation,
  issuer_id: "019a6c1e-0000-7000-8000-00000000000a",
  kid: "seal",
  payload: sealedPayload(salt, attestation),
};
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
  it("commit with SHA-256 over the label, a zero byte, the salt and the attestation's leaf data", () => {
    const expected = sha256Bytes(concatBytes(utf8Encode("hallmark.sealed/v1"), new Uint8Array([0]), salt, leafData(attestation)));
    expect(bytesToHex(sealCommitment(salt, attestation))).toBe(bytesToHex(expected));
    expect(sealed.payload).toEqual({ commitment: `sha256:${bytesToHex(expected)}`, type: SEALED_PAYLOAD_TYPE });
    expect(isSealedPayload(sealed.payload)).toBe(true);
    expect(isSealedPayload({ ...sealed.payload, extra: 1 })).toBe(false);
  });

  it("open with their salt and attestation, and with nothing else", () => {
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
    expect(codeOf(() => checkSealOpening({ ...sealed, id: attestation.issuer_id }, opening))).toBe("seal_opening_invalid");
    expect(codeOf(() => checkSealOpening({ ...sealed, created_at: "2026-11-26T12:00:00.001Z" }, opening))).toBe("seal_opening_invalid");
    const flipped = {
      ...sealed,
      payload: { ...sealed.payload, commitment: sealed.payload.commitment.replace(/.$/, (c) => (c === "0" ? "1" : "0")) },
    };
    expect(codeOf(() => checkSealOpening(flipped, opening))).toBe("seal_opening_invalid");
    expect(codeOf(() => checkSealOpening({ ...sealed, payload: { ...sealed.payload, type: "hallmark.sealed/v2" } }, opening))).toBe(
      "seal_opening_invalid",
    );
  });

  it("hide: two seals of one attestation with different salts share nothing", () => {
    const a = sealedPayload(salt, attestation).commitment;
    const b = sealedPayload(new Uint8Array(32).fill(1), attestation).commitment;
    expect(a).not.toBe(b);
  });
});
