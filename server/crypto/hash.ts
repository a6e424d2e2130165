// RFC 9162 hashing with node:crypto for the server's hot paths (about 3x faster here than the
// isomorphic lib/verify implementation, which stays the reference; hash.test.ts checks both agree).
import crypto from "node:crypto";

// One-shot hashing of the prefixed input (a pooled Buffer): no Hash object per hash, and the
// answer is a plain Uint8Array over the digest's own memory, not a copy of it.
const plain = (digest: Buffer): Uint8Array => new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);

export function leafHashNode(data: Uint8Array): Uint8Array {
  const input = Buffer.allocUnsafe(1 + data.length);
  input[0] = 0x00;
  input.set(data, 1);
  return plain(crypto.hash("sha256", input, "buffer"));
}

export function nodeHashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = Buffer.allocUnsafe(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return plain(crypto.hash("sha256", input, "buffer"));
}

/** Lowercase hex SHA-256 of a UTF-8 string: how tokens (sessions, e-mail links) are stored. */
export function sha256Hex(text: string): string {
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** Lowercase hex of bytes, natively (lib/verify's bytesToHex is the portable one; hot paths use this). */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
