// RFC 9162 hashing with node:crypto for the server's hot paths (about 3x faster here than the
// isomorphic lib/verify implementation, which stays the reference; hash.test.ts checks both agree).
import crypto from "node:crypto";

const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

export function leafHashNode(data: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(LEAF).update(data).digest());
}

export function nodeHashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(NODE).update(left).update(right).digest());
}

/** Lowercase hex SHA-256 of a UTF-8 string: how tokens (sessions, e-mail links) are stored. */
export function sha256Hex(text: string): string {
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
}
