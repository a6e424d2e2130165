// Ed25519 public keys: SubjectPublicKeyInfo PEM (RFC 8410) and RFC 7638/8037 JWK thumbprints.
import { sha256 } from "@noble/hashes/sha2.js";
import { base64ToBytes, bytesEqual, bytesToBase64, bytesToBase64Url, concatBytes, utf8Encode } from "./encoding";
import { isValidEd25519PublicKey } from "./ed25519";

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING (33) }. */
const SPKI_ED25519_PREFIX = new Uint8Array([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
const PEM_HEADER = "-----BEGIN PUBLIC KEY-----";
const PEM_FOOTER = "-----END PUBLIC KEY-----";
/** Far more than any Ed25519 PEM needs; bounds the work on attacker-supplied text. */
const MAX_PEM_LENGTH = 1024;

export class KeyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyFormatError";
  }
}

/**
 * Parses an Ed25519 public key from PEM SubjectPublicKeyInfo, strictly: one PUBLIC KEY block,
 * canonical base64 (line breaks allowed, LF or CRLF), DER exactly 302a300506032b6570032100 ‖ 32
 * bytes, and the 32 bytes must be a canonical, non-small-order curve point.
 * Surrounding whitespace is tolerated. Returns the raw 32-byte key.
 */
export function parsePublicKeyPem(pem: string): Uint8Array {
  if (typeof pem !== "string" || pem.length > MAX_PEM_LENGTH) throw new KeyFormatError("public key PEM is missing or too long");
  const lines = pem.trim().split(/\r?\n/);
  if (lines.length < 3 || lines[0] !== PEM_HEADER || lines[lines.length - 1] !== PEM_FOOTER) {
    throw new KeyFormatError("expected a single -----BEGIN PUBLIC KEY----- block");
  }
  const body = lines.slice(1, -1);
  if (body.some((l) => l.length === 0 || l.length > 76)) throw new KeyFormatError("malformed PEM body");
  let der: Uint8Array;
  try {
    der = base64ToBytes(body.join(""));
  } catch {
    throw new KeyFormatError("PEM body is not valid base64");
  }
  return parseSpkiDer(der);
}

/** Raw 32-byte Ed25519 key from its DER SubjectPublicKeyInfo encoding. */
export function parseSpkiDer(der: Uint8Array): Uint8Array {
  if (der.length !== SPKI_ED25519_PREFIX.length + 32 || !bytesEqual(der.subarray(0, SPKI_ED25519_PREFIX.length), SPKI_ED25519_PREFIX)) {
    throw new KeyFormatError("not an Ed25519 SubjectPublicKeyInfo");
  }
  const raw = der.slice(SPKI_ED25519_PREFIX.length);
  if (!isValidEd25519PublicKey(raw)) throw new KeyFormatError("not a valid Ed25519 public key");
  return raw;
}

function assertRawKey(raw: Uint8Array): void {
  if (!(raw instanceof Uint8Array) || raw.length !== 32) throw new KeyFormatError("Ed25519 public key must be 32 bytes");
}

/** DER SubjectPublicKeyInfo of a raw 32-byte Ed25519 key. */
export function publicKeyToSpkiDer(raw: Uint8Array): Uint8Array {
  assertRawKey(raw);
  return concatBytes(SPKI_ED25519_PREFIX, raw);
}

/** PEM exactly as OpenSSL and node:crypto write it ("-----BEGIN PUBLIC KEY-----\n<60 chars>\n-----END PUBLIC KEY-----\n"). */
export function publicKeyToPem(raw: Uint8Array): string {
  return `${PEM_HEADER}\n${bytesToBase64(publicKeyToSpkiDer(raw))}\n${PEM_FOOTER}\n`;
}

/** The RFC 8037 public JWK members of an Ed25519 key, in RFC 7638 required-member order. */
export function publicKeyToJwk(raw: Uint8Array): { crv: "Ed25519"; kty: "OKP"; x: string } {
  assertRawKey(raw);
  return { crv: "Ed25519", kty: "OKP", x: bytesToBase64Url(raw) };
}

/**
 * RFC 7638 JWK thumbprint (SHA-256, base64url without padding) of an Ed25519 key, per RFC 8037
 * §2: over the UTF-8 of {"crv":"Ed25519","kty":"OKP","x":"<base64url key>"}. This is the `kid`.
 */
export function jwkThumbprint(raw: Uint8Array): string {
  const jwk = publicKeyToJwk(raw);
  // Written out rather than serialized: RFC 7638 fixes member order and whitespace exactly.
  const json = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`;
  return bytesToBase64Url(sha256(utf8Encode(json)));
}
