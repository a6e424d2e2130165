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
import { deriveKey } from "../crypto/master-key";
import { processWide } from "../process-wide";

/**
 * This instance's witness keys (C2SP tlog-cosignature): an Ed25519 key (type 0x04) and an
 * ML-DSA-44 key (type 0x06), both derived from the master key (HKDF, one label each), so every
 * instance sharing the master key is the same witness and nothing new is stored. Its name is
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
}

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

function makeKey(name: string, type: CosignatureType, publicKey: Uint8Array, sign: WitnessKey["sign"]): WitnessKey {
  return { type, keyId: cosignerKeyId(name, type, publicKey), publicKey, vkey: cosignerVkey(name, type, publicKey), sign };
}

export function witnessIdentity(): WitnessIdentity {
  return processWide("witness-identity", () => {
    const name = getConfig().witnessName;
    const priv = crypto.createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519, deriveKey("witness/ed25519")]),
      format: "der",
      type: "pkcs8",
    });
    const edPublic = new Uint8Array(crypto.createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(-32));
    const ml = ml_dsa44.keygen(new Uint8Array(deriveKey("witness/ml-dsa-44")));
    return {
      name,
      keys: [
        makeKey(name, COSIGNATURE_ED25519, edPublic, (m) => new Uint8Array(crypto.sign(null, m, priv))),
        makeKey(name, COSIGNATURE_ML_DSA_44, ml.publicKey, (m) => ml_dsa44.sign(m, ml.secretKey)),
      ],
    };
  });
}

/** This witness's cosignature lines on a checkpoint body, one per key, timestamped now. */
export function cosignLines(body: string): string {
  const { name, keys } = witnessIdentity();
  const t = Math.floor(Date.now() / 1000);
  return keys
    .map((k) => {
      const message = k.type === COSIGNATURE_ED25519 ? cosignatureV1Message(body, t) : subtreeV1Message(name, t, body);
      return `\u2014 ${name} ${cosignatureBase64(k.keyId, t, k.sign(message))}\n`;
    })
    .join("");
}
