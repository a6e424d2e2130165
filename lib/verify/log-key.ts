// The pinned transparency-log key, as given by the caller of the verifier.
import { parseVerifierKey } from "./checkpoint";
import { VerifyError } from "./errors";
import { isValidEd25519PublicKey } from "./ed25519";
import { KeyFormatError, parsePublicKeyPem } from "./keys";
import { parseMlDsaLogKey, type LogKey } from "./log-signature";

/**
 * A raw 32-byte Ed25519 key, a PEM SubjectPublicKeyInfo, or a note verifier key
 * (`<origin>+<id>+<base64>`): Ed25519 (type 0x01) or ML-DSA-44 (type 0x06).
 */
export type LogPublicKey = Uint8Array | string;

/**
 * Resolves the pinned log key. A note verifier key also pins the origin (its key name) unless
 * an origin is given explicitly. Throws VerifyError("invalid_log_key").
 */
export function resolveLogKey(key: LogPublicKey, origin?: string): LogKey {
  try {
    if (key instanceof Uint8Array) {
      if (!isValidEd25519PublicKey(key)) throw new KeyFormatError("not a valid Ed25519 public key");
      return { publicKey: key, origin };
    }
    if (typeof key === "string" && key.trimStart().startsWith("-----BEGIN")) {
      return { publicKey: parsePublicKeyPem(key), origin };
    }
    if (typeof key === "string") {
      const mlDsa44 = parseMlDsaLogKey(key.trim());
      if (mlDsa44) return { publicKey: mlDsa44.publicKey, origin: origin ?? mlDsa44.name, mlDsa44 };
      const vkey = parseVerifierKey(key.trim());
      if (!isValidEd25519PublicKey(vkey.publicKey)) throw new KeyFormatError("not a valid Ed25519 public key");
      return { publicKey: vkey.publicKey, origin: origin ?? vkey.name };
    }
  } catch (e) {
    throw new VerifyError("invalid_log_key", `the pinned log key is invalid: ${(e as Error).message}`);
  }
  throw new VerifyError("invalid_log_key", "the pinned log key must be bytes or a string");
}

/** What GET /v1/log says of the log's keys (the fields a verifier reads). */
export interface LogKeysInfo {
  verifier_key?: string;
  public_key?: string;
  /** Every log of the chain a key rotation made: a checkpoint's origin names the one it is of. */
  shards?: { origin?: string; verifier_key?: string }[];
}

/**
 * The key a checkpoint of `origin` is checked with, from GET /v1/log: the key of the log (shard)
 * of that origin, else the current one (a server without shards, or no origin to go by).
 */
export function logKeyForOrigin(info: LogKeysInfo | null | undefined, origin: unknown): string | undefined {
  const shard = typeof origin === "string" ? info?.shards?.find((s) => s.origin === origin) : undefined;
  return shard?.verifier_key || info?.verifier_key || info?.public_key;
}
