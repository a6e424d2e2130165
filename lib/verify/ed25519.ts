// Ed25519 verification via @noble/ed25519 v3, made synchronous by installing the sha512 hook.
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";

// Idempotent: any other module may set the same hook.
ed.hashes.sha512 = sha512;

export const ED25519_PUBLIC_KEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;

/**
 * Strict RFC 8032 / FIPS 186-5 verification (`zip215: false`): rejects non-canonical point
 * encodings and S ≥ L, so it accepts exactly what OpenSSL and node:crypto accept.
 * Never throws: malformed inputs are simply not valid signatures.
 */
export function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== ED25519_SIGNATURE_SIZE || publicKey.length !== ED25519_PUBLIC_KEY_SIZE) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** True iff `raw` is a canonical encoding of a curve point that is not of small order. */
export function isValidEd25519PublicKey(raw: Uint8Array): boolean {
  if (raw.length !== ED25519_PUBLIC_KEY_SIZE) return false;
  try {
    const point = ed.Point.fromBytes(raw, false);
    return !point.isSmallOrder();
  } catch {
    return false;
  }
}
