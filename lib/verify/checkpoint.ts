// C2SP signed-note (https://c2sp.org/signed-note) with Ed25519 signatures, and C2SP
// tlog-checkpoint (https://c2sp.org/tlog-checkpoint) bodies. The log signs with key name =
// origin. Notes are attacker-controlled input: parsed strictly, with size and count caps.
import { sha256 } from "@noble/hashes/sha2.js";
import { base64ToBytes, bytesEqual, bytesToBase64, bytesToHex, concatBytes, hasLoneSurrogate, utf8Encode } from "./encoding";
import { verifyEd25519 } from "./ed25519";
import { VerifyError } from "./errors";
import { HASH_SIZE } from "./merkle";

/** Notes larger than this (UTF-8 bytes) are rejected before any parsing. */
export const MAX_NOTE_BYTES = 1024 * 1024;
/** Signature lines beyond this are rejected (the spec requires accepting at least 16). */
export const MAX_NOTE_SIGNATURES = 100;
const SIG_PREFIX = "\u2014 "; // em dash, space
const ALG_ED25519 = 0x01;

export interface NoteSignature {
  name: string;
  keyId: Uint8Array; // 4 bytes
  signature: Uint8Array; // the bytes after the key ID
  base64: string; // the text on the line: base64(keyId ‖ signature)
}

export interface ParsedNote {
  /** The signed text: up to and including the newline before the separating blank line. */
  body: string;
  signatures: NoteSignature[];
}

export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: Uint8Array;
  extensions: string[];
}

export interface VerifiedCheckpoint extends Checkpoint {
  body: string;
  /** base64 on the signature line that verified (the STH `signature` field). */
  signature: string;
}

const malformed = (message: string) => new VerifyError("malformed_checkpoint", message);

/** A key name per signed-note: non-empty, no Unicode spaces, no '+', no control characters. */
export function isValidKeyName(name: string): boolean {
  return typeof name === "string" && name.length > 0 && !/[\s+\u0000-\u001f]/u.test(name) && !hasLoneSurrogate(name);
}

function assertKey(name: string, publicKey: Uint8Array): void {
  if (!isValidKeyName(name)) throw new TypeError("invalid note key name");
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw new TypeError("Ed25519 public key must be 32 bytes");
}

/** Key ID = SHA-256(name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key)[:4]. */
export function noteKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  assertKey(name, publicKey);
  return sha256(concatBytes(utf8Encode(name), new Uint8Array([0x0a, ALG_ED25519]), publicKey)).slice(0, 4);
}

/** The note verifier key: `<name>+<key ID, 8 lowercase hex>+<base64(0x01 ‖ public key)>`. */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  const id = bytesToHex(noteKeyId(name, publicKey));
  return `${name}+${id}+${bytesToBase64(concatBytes(new Uint8Array([ALG_ED25519]), publicKey))}`;
}

/** Parses a verifier key string, checking that its key ID matches its name and key. */
export function parseVerifierKey(vkey: string): { name: string; keyId: Uint8Array; publicKey: Uint8Array } {
  const m = /^([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey);
  if (!m || !isValidKeyName(m[1]!)) throw new TypeError("malformed verifier key");
  let key: Uint8Array;
  try {
    key = base64ToBytes(m[3]!);
  } catch {
    throw new TypeError("malformed verifier key");
  }
  if (key.length !== 33 || key[0] !== ALG_ED25519) throw new TypeError("verifier key is not an Ed25519 key");
  const publicKey = key.slice(1);
  const keyId = noteKeyId(m[1]!, publicKey);
  if (bytesToHex(keyId) !== m[2]) throw new TypeError("verifier key ID does not match its key");
  return { name: m[1]!, keyId, publicKey };
}

/** The text of a signature line after the name: base64(key ID ‖ signature). */
export function noteSignatureBase64(name: string, publicKey: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 64) throw new TypeError("Ed25519 signature must be 64 bytes");
  return bytesToBase64(concatBytes(noteKeyId(name, publicKey), signature));
}

/** "<origin>\n<decimal size>\n<base64 root>\n" */
export function formatCheckpointBody(origin: string, treeSize: number, rootHash: Uint8Array): string {
  if (!isValidKeyName(origin)) throw new TypeError("invalid checkpoint origin");
  if (!Number.isSafeInteger(treeSize) || treeSize < 0) throw new TypeError("invalid tree size");
  if (rootHash.length !== HASH_SIZE) throw new TypeError("root hash must be 32 bytes");
  return `${origin}\n${treeSize}\n${bytesToBase64(rootHash)}\n`;
}

/** body ‖ "\n" ‖ "— <name> <base64(key ID ‖ signature)>\n", `signature` being Ed25519 over UTF-8(body). */
export function formatSignedNote(body: string, name: string, publicKey: Uint8Array, signature: Uint8Array): string {
  if (!body.endsWith("\n")) throw new TypeError("note body must end with a newline");
  return `${body}\n${SIG_PREFIX}${name} ${noteSignatureBase64(name, publicKey, signature)}\n`;
}

/** Splits a signed note into body and signature lines, rejecting anything malformed. */
export function parseSignedNote(text: string): ParsedNote {
  if (typeof text !== "string") throw malformed("checkpoint must be a string");
  if (text.length > MAX_NOTE_BYTES) throw malformed("note is too large");
  if (hasLoneSurrogate(text)) throw malformed("note is not valid Unicode");
  if (utf8Encode(text).length > MAX_NOTE_BYTES) throw malformed("note is too large");
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw malformed("note contains control characters");
  if (!text.endsWith("\n")) throw malformed("note must end with a newline");
  const split = text.lastIndexOf("\n\n");
  if (split < 0) throw malformed("note has no signature block");
  const body = text.slice(0, split + 1);
  const lines = text.slice(split + 2, -1).split("\n");
  if (lines.length > MAX_NOTE_SIGNATURES) throw malformed("note has too many signatures");
  const signatures = lines.map((line): NoteSignature => {
    if (!line.startsWith(SIG_PREFIX)) throw malformed("malformed signature line");
    const rest = line.slice(SIG_PREFIX.length);
    const space = rest.indexOf(" ");
    const name = rest.slice(0, space);
    const b64 = rest.slice(space + 1);
    if (space < 0 || !isValidKeyName(name) || b64.includes(" ")) throw malformed("malformed signature line");
    let raw: Uint8Array;
    try {
      raw = base64ToBytes(b64);
    } catch {
      throw malformed("signature is not valid base64");
    }
    if (raw.length < 5) throw malformed("signature is too short");
    return { name, keyId: raw.slice(0, 4), signature: raw.slice(4), base64: b64 };
  });
  return { body, signatures };
}

/**
 * Verifies a note against one trusted Ed25519 key. Signatures by other keys (a different name
 * or key ID) are ignored; every signature by our key must verify, and at least one must exist.
 * Returns the body and the verified signature line.
 */
export function verifyNote(text: string, key: { name: string; publicKey: Uint8Array }): { body: string; signature: NoteSignature } {
  return verifyParsedNote(parseSignedNote(text), key);
}

/** verifyNote on a note already parsed. */
export function verifyParsedNote(
  note: ParsedNote,
  key: { name: string; publicKey: Uint8Array },
): { body: string; signature: NoteSignature } {
  const keyId = noteKeyId(key.name, key.publicKey);
  const bodyBytes = utf8Encode(note.body);
  let verified: NoteSignature | undefined;
  for (const sig of note.signatures) {
    if (sig.name !== key.name || !bytesEqual(sig.keyId, keyId)) continue;
    if (!verifyEd25519(sig.signature, bodyBytes, key.publicKey)) {
      throw new VerifyError("checkpoint_signature_invalid", "a signature by the log key does not verify");
    }
    verified ??= sig;
  }
  if (!verified) throw new VerifyError("checkpoint_signature_invalid", "no signature by the log key");
  return { body: note.body, signature: verified };
}

/** Parses a tlog-checkpoint body: origin, decimal size (no leading zeros), base64 root, extension lines. */
export function parseCheckpointBody(body: string): Checkpoint {
  const lines = body.split("\n");
  if (lines.pop() !== "" || lines.length < 3 || lines.some((l) => l.length === 0)) {
    throw malformed("checkpoint body must be at least three non-empty lines");
  }
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    throw malformed("tree size must be a decimal integer without leading zeros");
  }
  let rootHash: Uint8Array;
  try {
    rootHash = base64ToBytes(rootText);
  } catch {
    throw malformed("root hash is not valid base64");
  }
  if (rootHash.length !== HASH_SIZE) throw malformed("root hash must be 32 bytes");
  return { origin, treeSize: Number(sizeText), rootHash, extensions };
}

/**
 * Verifies a checkpoint against the pinned log key (and origin, if pinned). The note's key name
 * must be the checkpoint's origin. Throws VerifyError (invalid_log_key, malformed_checkpoint,
 * origin_mismatch, checkpoint_signature_invalid).
 */
export function verifyCheckpoint(text: string, opts: { publicKey: Uint8Array; origin?: string }): VerifiedCheckpoint {
  if (!(opts.publicKey instanceof Uint8Array) || opts.publicKey.length !== 32) {
    throw new VerifyError("invalid_log_key", "the log public key must be 32 raw bytes");
  }
  const note = parseSignedNote(text);
  const checkpoint = parseCheckpointBody(note.body);
  if (opts.origin !== undefined && checkpoint.origin !== opts.origin) {
    throw new VerifyError("origin_mismatch", `checkpoint origin "${checkpoint.origin}" is not the pinned origin`);
  }
  if (!isValidKeyName(checkpoint.origin)) throw malformed("checkpoint origin is not a valid key name");
  const { signature } = verifyParsedNote(note, { name: checkpoint.origin, publicKey: opts.publicKey });
  return { ...checkpoint, body: note.body, signature: signature.base64 };
}
