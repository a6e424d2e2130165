import "server-only";
import crypto from "node:crypto";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import {
  COSIGNATURE_ED25519,
  COSIGNATURE_ML_DSA_44,
  type CosignatureType,
  cosignatureBase64,
  cosignatureV1Message,
  cosignerKeyId,
  cosignerVkey,
  subtreeV1Message,
} from "@/lib/verify/cosignature";
import { getConfig } from "../config";
import { getDb } from "../db";
import { processWide } from "../process-wide";
import { loadWitnessSeeds } from "./witness-key";

/**
 * This instance's witness keys (C2SP tlog-cosignature): an Ed25519 key (type 0x04) and an
 * ML-DSA-44 key (type 0x06), from the seeds of its witness key file (witness-key.ts): instances
 * sharing a database are one witness only if they share that file. Its name is
 * HALLMARK_WITNESS_NAME, by default the base URL's host and path followed by /witness.
 */
interface WitnessKey {
  type: CosignatureType;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  vkey: string;
  sign(message: Uint8Array): Uint8Array;
}

export interface WitnessIdentity {
  name: string;
  keys: WitnessKey[];
  /** The verifier keys, one a line (Ed25519 first): what a witnessed log's record is bound to. */
  vkeys: string;
}

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

function makeKey(name: string, type: CosignatureType, publicKey: Uint8Array, sign: WitnessKey["sign"]): WitnessKey {
  return { type, keyId: cosignerKeyId(name, type, publicKey), publicKey, vkey: cosignerVkey(name, type, publicKey), sign };
}

function identityOf(name: string, ed25519: Buffer, mlDsa44: Buffer): WitnessIdentity {
  const priv = crypto.createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, ed25519]), format: "der", type: "pkcs8" });
  const edPublic = new Uint8Array(crypto.createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(-32));
  const ml = ml_dsa44.keygen(new Uint8Array(mlDsa44));
  const keys = [
    makeKey(name, COSIGNATURE_ED25519, edPublic, (m) => new Uint8Array(crypto.sign(null, m, priv))),
    makeKey(name, COSIGNATURE_ML_DSA_44, ml.publicKey, (m) => ml_dsa44.sign(m, ml.secretKey)),
  ];
  return { name, keys, vkeys: keys.map((k) => k.vkey).join("\n") };
}

/**
 * The witness's identity, read once per process. Records made before records were bound to a
 * witness key are bound to this one here: the seeds were derived for exactly them (witness-key.ts).
 */
export function witnessIdentity(): Promise<WitnessIdentity> {
  return processWide("witness-identity", () =>
    (async () => {
      const seeds = await loadWitnessSeeds();
      const identity = identityOf(getConfig().witnessName, seeds.ed25519, seeds.mlDsa44);
      await getDb().write((tx) => tx.witnessedLog.updateMany({ where: { witnessVkeys: null }, data: { witnessVkeys: identity.vkeys } }));
      return identity;
    })(),
  );
}

/** The timestamp (seconds) of the first of `lines`, cosignature lines as cosignLines makes them (key ID, then the big-endian time). */
export function cosignedAt(lines: string): number {
  const b64 = lines.slice(0, lines.indexOf("\n")).split(" ").at(-1) ?? "";
  const bytes = Buffer.from(b64, "base64");
  return bytes.length >= 12 ? Number(bytes.readBigUInt64BE(4)) : 0;
}

/** The cosignature lines of `identity` on a checkpoint body, one per key, timestamped now. */
export function cosignLines(identity: WitnessIdentity, body: string): string {
  const { name, keys } = identity;
  const t = Math.floor(Date.now() / 1000);
  return keys
    .map((k) => {
      const message = k.type === COSIGNATURE_ED25519 ? cosignatureV1Message(body, t) : subtreeV1Message(name, t, body);
      return `\u2014 ${name} ${cosignatureBase64(k.keyId, t, k.sign(message))}\n`;
    })
    .join("");
}
