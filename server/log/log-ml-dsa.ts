import "server-only";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { COSIGNATURE_ML_DSA_44, cosignatureBase64, cosignerKeyId, cosignerVkey, subtreeV1Message } from "@/lib/verify/cosignature";
import { deriveKey } from "../crypto/master-key";
import { getDb } from "../db";
import { processWide } from "../process-wide";
import type { Checkpoint } from "../store/types";

/**
 * The log's ML-DSA-44 key (tlog-checkpoint: logs SHOULD sign with ML-DSA-44 cosignatures): its
 * checkpoints carry a second log signature line, in the tlog-cosignature ML-DSA-44 format (type
 * 0x06) with the origin as key name, beside the Ed25519 one. A verifier picks its line by key
 * name and key ID: one that knows only the Ed25519 key ignores this line, and one pinning this
 * key ignores the Ed25519 line. Derived from the master key and the origin (HKDF), so every
 * instance holds the same key and a new origin (a new log) has a new one.
 *
 * Signing costs milliseconds, so it is never on the write path: the witnessing scheduler signs
 * the newest checkpoint at most once a round, before offering it to witnesses, and the line is
 * stored beside the cosignatures: every published and witnessed checkpoint carries it.
 */
export interface LogMlDsaKey {
  vkey: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export function logMlDsaKey(origin: string): LogMlDsaKey {
  const keys = processWide("log-ml-dsa-keys", () => new Map<string, LogMlDsaKey>());
  let key = keys.get(origin);
  if (!key) {
    const pair = ml_dsa44.keygen(new Uint8Array(deriveKey(`log/ml-dsa-44/${origin}`)));
    key = {
      vkey: cosignerVkey(origin, COSIGNATURE_ML_DSA_44, pair.publicKey),
      keyId: cosignerKeyId(origin, COSIGNATURE_ML_DSA_44, pair.publicKey),
      publicKey: pair.publicKey,
      sign: (m) => ml_dsa44.sign(m, pair.secretKey),
    };
    keys.set(origin, key);
  }
  return key;
}

/** Signs checkpoint `cp` with the log's ML-DSA-44 key unless that line is stored already (idempotent across instances); true when it signed. */
export async function signWithMlDsa(origin: string, cp: Checkpoint): Promise<boolean> {
  const key = logMlDsaKey(origin);
  const db = getDb();
  const where = { treeSize_witnessKey: { treeSize: cp.treeSize, witnessKey: key.vkey } };
  if (await db.read.cosignature.findUnique({ where, select: { treeSize: true } })) return false;
  const body = parseSignedNote(cp.note).body;
  const t = Math.floor(Date.now() / 1000);
  const signature = cosignatureBase64(key.keyId, t, key.sign(subtreeV1Message(origin, t, body)));
  await db.write((tx) =>
    tx.cosignature.upsert({
      where,
      create: { treeSize: cp.treeSize, witnessKey: key.vkey, keyName: origin, signature, cosignedAt: new Date(t * 1000) },
      update: {},
    }),
  );
  return true;
}
