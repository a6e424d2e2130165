import { createPublicKey, verify as nodeVerify } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyEd25519 } from "./ed25519";
import { base64UrlToBytes, bytesToHex, hexToBytes } from "./encoding";
import { jwkThumbprint, parsePublicKeyPem, publicKeyToJwk, publicKeyToPem } from "./keys";
import { makeKey, signBytes } from "./testing/fixtures";

// RFC 8032 §7.1, TEST 1–3 (public key, message, signature).
const RFC8032 = [
  {
    name: "TEST 1",
    pub: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    msg: "",
    sig: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    name: "TEST 2",
    pub: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    msg: "72",
    sig: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
  {
    name: "TEST 3",
    pub: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    msg: "af82",
    sig: "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
  },
];

describe("Ed25519 (RFC 8032 §7.1)", () => {
  it.each(RFC8032)("$name verifies through the PEM helpers and rejects tampering", ({ pub, msg, sig }) => {
    const raw = parsePublicKeyPem(publicKeyToPem(hexToBytes(pub)));
    expect(bytesToHex(raw)).toBe(pub);
    const m = hexToBytes(msg);
    const s = hexToBytes(sig);
    expect(verifyEd25519(s, m, raw)).toBe(true);
    const badSig = s.slice();
    badSig[10]! ^= 1;
    expect(verifyEd25519(badSig, m, raw)).toBe(false);
    expect(verifyEd25519(s, new Uint8Array([...m, 0]), raw)).toBe(false);
    expect(verifyEd25519(s.subarray(0, 63), m, raw)).toBe(false);
    // S + L (non-canonical scalar) is rejected by strict RFC 8032 verification.
    const sPlusL = s.slice();
    const L = hexToBytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
    let carry = 0;
    for (let i = 0; i < 32; i++) {
      const v = sPlusL[32 + i]! + L[i]! + carry;
      sPlusL[32 + i] = v & 255;
      carry = v >> 8;
    }
    expect(verifyEd25519(sPlusL, m, raw)).toBe(false);
  });
});

describe("Ed25519 strictness", () => {
  it("rejects signatures that only ZIP215 (cofactored, non-canonical) verification accepts", () => {
    // R = identity, S = 0 "verifies" any message under a small-order key with ZIP215 rules.
    const identity = hexToBytes("0100000000000000000000000000000000000000000000000000000000000000");
    const identityNonCanonical = hexToBytes("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
    const msg = new Uint8Array([1, 2, 3]);
    const sig = (r: Uint8Array) => new Uint8Array([...r, ...new Uint8Array(32)]);
    expect(verifyEd25519(sig(identity), msg, identity)).toBe(false);
    expect(verifyEd25519(sig(identity), msg, identityNonCanonical)).toBe(false);
    expect(verifyEd25519(sig(identityNonCanonical), msg, identity)).toBe(false);
  });
});

describe("PEM SubjectPublicKeyInfo", () => {
  it("parses the RFC 8410 §10.1 example key", () => {
    const pem = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n";
    expect(bytesToHex(parsePublicKeyPem(pem))).toBe("19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1");
    expect(publicKeyToPem(parsePublicKeyPem(pem))).toBe(pem);
  });

  it("round-trips with node:crypto (OpenSSL) PEM byte for byte", () => {
    for (let i = 0; i < 5; i++) {
      const key = makeKey();
      expect(publicKeyToPem(key.publicKeyRaw)).toBe(key.publicKeyPem);
      expect(parsePublicKeyPem(key.publicKeyPem)).toEqual(key.publicKeyRaw);
      // A signature checked by OpenSSL with our PEM, and by us with OpenSSL's key.
      const msg = new TextEncoder().encode(`message ${i}`);
      const sig = signBytes(key, msg);
      expect(nodeVerify(null, msg, createPublicKey(publicKeyToPem(key.publicKeyRaw)), sig)).toBe(true);
      expect(verifyEd25519(sig, msg, parsePublicKeyPem(key.publicKeyPem))).toBe(true);
    }
  });

  it("tolerates CRLF and surrounding whitespace", () => {
    const { publicKeyPem, publicKeyRaw } = makeKey();
    expect(parsePublicKeyPem("\n  " + publicKeyPem.replace(/\n/g, "\r\n") + "  \n")).toEqual(publicKeyRaw);
  });

  it("rejects anything but a strict Ed25519 SPKI", () => {
    const { publicKeyPem } = makeKey();
    const body = publicKeyPem.split("\n")[1]!;
    const wrap = (b: string) => `-----BEGIN PUBLIC KEY-----\n${b}\n-----END PUBLIC KEY-----\n`;
    const x25519 = createPublicKey({ key: { kty: "OKP", crv: "X25519", x: "hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo" }, format: "jwk" });
    const bad = [
      "",
      body,
      publicKeyPem.replace("PUBLIC KEY", "PRIVATE KEY"),
      publicKeyPem.replace("-----END PUBLIC KEY-----", ""),
      wrap(body.slice(0, -4)),
      wrap(body + "AAAA"),
      wrap(body.replace("=", "")),
      wrap(body.slice(0, 20) + " " + body.slice(20)),
      wrap(body.replace(/^MCow/, "MCox")),
      x25519.export({ format: "pem", type: "spki" }).toString(),
      publicKeyPem + publicKeyPem,
      // Small-order point (the identity) and a non-canonical y ≥ p.
      publicKeyToPem(hexToBytes("0100000000000000000000000000000000000000000000000000000000000000")),
      publicKeyToPem(hexToBytes("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
      "x".repeat(5000),
    ];
    for (const pem of bad) expect(() => parsePublicKeyPem(pem), JSON.stringify(pem)).toThrow();
  });
});

describe("JWK thumbprint (RFC 7638 / RFC 8037)", () => {
  it("matches RFC 8037 Appendix A.3 for the A.1 key", () => {
    const x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
    const raw = base64UrlToBytes(x);
    expect(publicKeyToJwk(raw)).toEqual({ crv: "Ed25519", kty: "OKP", x });
    expect(jwkThumbprint(raw)).toBe("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
  });

  it("agrees with node:crypto's JWK export for random keys", () => {
    fc.assert(
      fc.property(fc.integer(), () => {
        const key = makeKey();
        const jwk = createPublicKey(key.publicKeyPem).export({ format: "jwk" });
        expect(publicKeyToJwk(key.publicKeyRaw)).toEqual({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
        expect(jwkThumbprint(key.publicKeyRaw)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }),
      { numRuns: 10 },
    );
  });
});
