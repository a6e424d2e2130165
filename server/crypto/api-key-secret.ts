import "server-only";
import crypto from "node:crypto";
import zlib from "node:zlib";
import { deriveKey } from "./master-key";

/**
 * API key format: `hm_live_` + 32 random base62 characters + 6 base62 characters of CRC-32
 * checksum over everything before it. The checksum lets a typo or a scanned string be
 * rejected without a database read; it is not a secret. `prefix` (the first 16 characters)
 * is what lists show. Only HMAC-SHA-256(derived key, whole key) is stored.
 */
const PREFIX = "hm_live_";
const RANDOM_LEN = 32;
const CHECK_LEN = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SHAPE = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LEN + CHECK_LEN}}$`);

function base62(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(zlib.crc32(body), CHECK_LEN);
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

// A KeyObject, imported once: every authenticated request hashes a key with it.
let hashKey: crypto.KeyObject | undefined;

export function hashApiKey(secret: string): string {
  hashKey ??= crypto.createSecretKey(deriveKey("api-key-hash"));
  return crypto.createHmac("sha256", hashKey).update(secret).digest("hex");
}

export function generateApiKey(): { secret: string; prefix: string; hash: string } {
  const body = PREFIX + randomBase62(RANDOM_LEN);
  const secret = body + checksum(body);
  return { secret, prefix: secret.slice(0, PREFIX.length + 8), hash: hashApiKey(secret) };
}

/** True when the string has the shape and a correct checksum of a Hallmark API key. */
export function isWellFormedApiKey(secret: string): boolean {
  if (!SHAPE.test(secret)) return false;
  const body = secret.slice(0, -CHECK_LEN);
  return checksum(body) === secret.slice(-CHECK_LEN);
}
