import "server-only";
import crypto from "node:crypto";
import { deriveKey } from "./master-key";

/** Format of an encrypted private key: "v1." + base64(iv[12] ‖ ciphertext ‖ tag[16]). */
const VERSION = "v1.";
let wrapKey: Buffer | undefined;

function key(): Buffer {
  wrapKey ??= deriveKey("private-key-wrap");
  return wrapKey;
}

/** Encrypts a PKCS#8 private key, bound to `context` (the kid or log origin) as associated data. */
export function sealPrivateKey(privateKey: crypto.KeyObject, context: string): string {
  const der = privateKey.export({ format: "der", type: "pkcs8" });
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(der), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

export function openPrivateKey(sealed: string, context: string): crypto.KeyObject {
  if (!sealed.startsWith(VERSION)) throw new Error("unknown private key encoding");
  const raw = Buffer.from(sealed.slice(VERSION.length), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  const der = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  return crypto.createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

export interface Ed25519KeyPair {
  privateKey: crypto.KeyObject;
  /** The raw 32-byte public key. */
  publicRaw: Uint8Array;
}

export function generateEd25519(): Ed25519KeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  const spki = publicKey.export({ format: "der", type: "spki" });
  return { privateKey, publicRaw: new Uint8Array(spki.subarray(spki.length - 32)) };
}

export function signEd25519(privateKey: crypto.KeyObject, message: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.sign(null, message, privateKey));
}
