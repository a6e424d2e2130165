// RFC 9162 hashing with node:crypto for the server's hot paths: native hashing costs them less than
// the isomorphic lib/verify implementation, which stays the reference (measured: docs/performance.md,
// "Choices in the hot paths"); attestation-bytes.test.ts checks both agree.
import crypto from "node:crypto";

/**
 * SHA-256 of `prefix ‖ a ‖ b`, one-shot over a pooled Buffer (no Hash object per hash); the answer
 * is a plain Uint8Array over the digest's own memory, not a copy of it.
 */
function prefixedHash(prefix: number, a: Uint8Array, b?: Uint8Array): Uint8Array {
  const input = Buffer.allocUnsafe(1 + a.length + (b?.length ?? 0));
  input[0] = prefix;
  input.set(a, 1);
  if (b) input.set(b, 1 + a.length);
  const digest = crypto.hash("sha256", input, "buffer");
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

export const leafHashNode = (data: Uint8Array): Uint8Array => prefixedHash(0x00, data);

export const nodeHashNode = (left: Uint8Array, right: Uint8Array): Uint8Array => prefixedHash(0x01, left, right);

/** Lowercase hex SHA-256 of a UTF-8 string: how tokens (sessions, e-mail links) are stored. */
export function sha256Hex(text: string): string {
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** Lowercase hex of bytes, natively (lib/verify's bytesToHex is the portable one; hot paths use this). */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
