import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ATTESTATION_PAYLOAD_TYPE, leafData, pae, signingBody, signingMessage, verifyAttestationSignature } from "./attestation";
import { bytesToBase64, utf8Decode, utf8Encode } from "./encoding";
import { makeKey, signBytes } from "./testing/fixtures";

const fields = {
  id: "0190f5a0-1111-7000-8000-00000000abcd",
  issuer_id: "0190f5a0-0000-7000-8000-000000000001",
  kid: "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",
  payload: { z: 1, a: "é", n: [1.5, 1e21] },
  created_at: "2025-03-04T05:06:07.089Z",
};

describe("DSSE PAE", () => {
  it("matches the DSSE v1 protocol example", () => {
    // github.com/secure-systems-lab/dsse protocol.md: PAE("http://example.com/HelloWorld", "hello world").
    expect(utf8Decode(pae("http://example.com/HelloWorld", utf8Encode("hello world")))).toBe(
      "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
    );
  });

  it("uses byte lengths, not character counts", () => {
    expect(utf8Decode(pae("t", utf8Encode("é€")))).toBe("DSSEv1 1 t 5 é€");
    expect(utf8Decode(pae("type/é", utf8Encode("x")))).toBe("DSSEv1 7 type/é 1 x");
    expect(utf8Decode(pae("", new Uint8Array(0)))).toBe("DSSEv1 0  0 ");
  });
});

describe("attestation signing message and leaf", () => {
  it("signs JCS of exactly the five fields, ignoring status/log_index/signature", () => {
    const body = utf8Decode(signingBody({ ...fields, status: "active", log_index: 9, signature: "x" } as typeof fields));
    expect(body).toBe(
      '{"created_at":"2025-03-04T05:06:07.089Z","id":"0190f5a0-1111-7000-8000-00000000abcd",' +
        '"issuer_id":"0190f5a0-0000-7000-8000-000000000001","kid":"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",' +
        '"payload":{"a":"é","n":[1.5,1e+21],"z":1}}',
    );
    const msg = utf8Decode(signingMessage(fields));
    expect(ATTESTATION_PAYLOAD_TYPE).toBe("application/vnd.hallmark.attestation.v1+json");
    expect(msg).toBe(`DSSEv1 44 ${ATTESTATION_PAYLOAD_TYPE} ${utf8Encode(body).length} ${body}`);
  });

  it("leaf data is JCS of the five fields plus the signature", () => {
    const leaf = JSON.parse(utf8Decode(leafData({ ...fields, signature: "c2ln", log_index: 3 } as never)));
    expect(Object.keys(leaf)).toEqual(["created_at", "id", "issuer_id", "kid", "payload", "signature"]);
    expect(leaf.signature).toBe("c2ln");
  });

  it("verifies a node:crypto (OpenSSL) signature and rejects any tampering", () => {
    const key = makeKey();
    const sig = signBytes(key, signingMessage(fields));
    const att = { ...fields, signature: bytesToBase64(sig) };
    // The contract: plain OpenSSL verifies the signature over PAE with the PEM key.
    expect(nodeVerify(null, signingMessage(att), createPublicKey(key.publicKeyPem), sig)).toBe(true);
    expect(verifyAttestationSignature(att, key.publicKeyRaw)).toBe(true);
    expect(verifyAttestationSignature({ ...att, id: att.id + "0" }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, kid: "other" }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, issuer_id: "x" }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, created_at: "2025-03-04T05:06:07.090Z" }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, payload: { ...fields.payload, z: 2 } }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature(att, makeKey().publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, signature: att.signature.replace(/=+$/, "") }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, signature: "not base64!" }, key.publicKeyRaw)).toBe(false);
    expect(verifyAttestationSignature({ ...att, payload: { bad: NaN } }, key.publicKeyRaw)).toBe(false);
  });
});
