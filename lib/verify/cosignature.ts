// C2SP tlog-cosignature (https://c2sp.org/tlog-cosignature): witness cosignatures on a
// checkpoint, in both defined types. A cosignature is a signed-note signature line whose bytes
// are key ID (4) ‖ timestamp (u64, big-endian) ‖ signature:
// - Ed25519 (vkey type 0x04) signs "cosignature/v1\ntime <T>\n" ‖ the checkpoint body;
// - ML-DSA-44 (vkey type 0x06) signs the cosigned_message struct (subtree/v1 label, cosigner
//   name, timestamp, origin, start 0, end = tree size, root hash).
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64ToBytes, bytesEqual, bytesToBase64, bytesToHex, concatBytes, utf8Encode } from "./encoding";
import { verifyEd25519 } from "./ed25519";
import { isValidKeyName, parseCheckpointBody, type NoteSignature } from "./checkpoint";

export const COSIGNATURE_ED25519 = 0x04;
export const COSIGNATURE_ML_DSA_44 = 0x06;
const KEY_SIZE = { [COSIGNATURE_ED25519]: 32, [COSIGNATURE_ML_DSA_44]: 1312 } as const;
const SIG_SIZE = { [COSIGNATURE_ED25519]: 64, [COSIGNATURE_ML_DSA_44]: 2420 } as const;
export type CosignatureType = typeof COSIGNATURE_ED25519 | typeof COSIGNATURE_ML_DSA_44;

export interface CosignerKey {
  name: string;
  type: CosignatureType;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  /** The verifier key this came from. */
  vkey: string;
}

/** Key ID = SHA-256(name ‖ "\n" ‖ type ‖ public key)[:4]. */
export function cosignerKeyId(name: string, type: CosignatureType, publicKey: Uint8Array): Uint8Array {
  return sha256(concatBytes(utf8Encode(name), new Uint8Array([0x0a, type]), publicKey)).slice(0, 4);
}

/** Parses a witness verifier key `<name>+<key ID hex>+<base64(type ‖ key)>` of type 0x04 or 0x06. */
export function parseCosignerKey(vkey: string): CosignerKey {
  const m = /^([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey);
  if (!m || !isValidKeyName(m[1]!)) throw new TypeError("malformed witness verifier key");
  let raw: Uint8Array;
  try {
    raw = base64ToBytes(m[3]!);
  } catch {
    throw new TypeError("malformed witness verifier key");
  }
  const type = raw[0];
  if (type !== COSIGNATURE_ED25519 && type !== COSIGNATURE_ML_DSA_44)
    throw new TypeError("witness key is not an Ed25519 (0x04) or ML-DSA-44 (0x06) cosigner key");
  const publicKey = raw.slice(1);
  if (publicKey.length !== KEY_SIZE[type]) throw new TypeError("witness key has the wrong length for its type");
  const keyId = cosignerKeyId(m[1]!, type, publicKey);
  if (bytesToHex(keyId) !== m[2]) throw new TypeError("witness verifier key ID does not match its key");
  return { name: m[1]!, type, keyId, publicKey, vkey };
}

const u64 = (n: number): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
};

/** A cosigner's verifier key: `<name>+<key ID hex>+base64(type ‖ public key)` (what parseCosignerKey reads). */
export function cosignerVkey(name: string, type: CosignatureType, publicKey: Uint8Array): string {
  return `${name}+${bytesToHex(cosignerKeyId(name, type, publicKey))}+${bytesToBase64(concatBytes(new Uint8Array([type]), publicKey))}`;
}

/** A cosignature line's base64: key ID ‖ timestamp (u64, big-endian) ‖ signature (timestamped_signature). */
export function cosignatureBase64(keyId: Uint8Array, timestamp: number, signature: Uint8Array): string {
  return bytesToBase64(concatBytes(keyId, u64(timestamp), signature));
}

/** The Ed25519 cosignature's signed message. */
export function cosignatureV1Message(body: string, timestamp: number): Uint8Array {
  return utf8Encode(`cosignature/v1\ntime ${timestamp}\n${body}`);
}

/** The ML-DSA-44 cosignature's signed message: cosigned_message for the whole tree (start 0). */
export function subtreeV1Message(cosignerName: string, timestamp: number, body: string): Uint8Array {
  const cp = parseCheckpointBody(body);
  const name = utf8Encode(cosignerName);
  const origin = utf8Encode(cp.origin);
  if (name.length > 255 || origin.length > 255) throw new TypeError("name or origin longer than 255 bytes");
  return concatBytes(
    utf8Encode("subtree/v1\n\0"),
    new Uint8Array([name.length]),
    name,
    u64(timestamp),
    new Uint8Array([origin.length]),
    origin,
    u64(0),
    u64(cp.treeSize),
    cp.rootHash,
  );
}

/** Whether this signature line is by this cosigner (its name and key ID). */
export function isCosignatureBy(sig: Pick<NoteSignature, "name" | "keyId">, key: CosignerKey): boolean {
  return sig.name === key.name && bytesEqual(sig.keyId, key.keyId);
}

/**
 * Verifies one cosignature line by `key` on a checkpoint `body`; returns its timestamp (POSIX
 * seconds), or null when the signature does not verify or is malformed. A timestamp of 0 is a
 * valid ML-DSA-44 cosignature that states no time (tlog-cosignature: the cosigner vouches for
 * the tree's consistency, not that it was the newest at some moment): callers count it as a
 * cosignature and never as evidence of freshness.
 */
export function verifyCosignature(body: string, sig: NoteSignature, key: CosignerKey): number | null {
  if (!isCosignatureBy(sig, key)) return null;
  if (sig.signature.length !== 8 + SIG_SIZE[key.type]) return null;
  const t = new DataView(sig.signature.buffer, sig.signature.byteOffset, 8).getBigUint64(0);
  if (t > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const timestamp = Number(t);
  const signature = sig.signature.subarray(8);
  if (key.type === COSIGNATURE_ED25519) {
    return verifyEd25519(signature, cosignatureV1Message(body, timestamp), key.publicKey) ? timestamp : null;
  }
  return verifyMlDsa44(key.publicKey, subtreeV1Message(key.name, timestamp, body), signature) ? timestamp : null;
}

/**
 * FIPS 204 ML-DSA-44 verification (pure, empty context, as tlog-cosignature signs); false for a
 * malformed key or signature as for a wrong one. Checked against Wycheproof's vectors.
 */
export function verifyMlDsa44(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return ml_dsa44.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}
