// RFC 9162 hashing with node:crypto for the server's hot paths (about 3x faster here than the
// isomorphic lib/verify implementation, which stays the reference; hash.test.ts checks both agree).
import crypto from "node:crypto";

const LEAF = Buffer.from([0x00]);

export function leafHashNode(data: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(LEAF).update(data).digest());
}

export function nodeHashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  // One-shot hashing of 0x01 ‖ left ‖ right: no Hash object per node.
  const input = Buffer.allocUnsafe(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return new Uint8Array(crypto.hash("sha256", input, "buffer"));
}

/** Lowercase hex SHA-256 of a UTF-8 string: how tokens (sessions, e-mail links) are stored. */
export function sha256Hex(text: string): string {
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}

/** Lowercase hex of bytes, natively (lib/verify's bytesToHex is the portable one; hot paths use this). */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
