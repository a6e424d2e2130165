import "server-only";
import type crypto from "node:crypto";
import {
  emptyRootHash,
  formatCheckpointBody,
  formatSignedNote,
  noteKeyId,
  noteSignatureBase64,
  publicKeyToPem,
  utf8Encode,
  verifierKey,
} from "@/lib/verify";
import { getConfig } from "../config";
import { dbBytes, getDb, type Tx } from "../db";
import { generateEd25519, openPrivateKey, sealPrivateKey, signEd25519 } from "../crypto/key-custody";

/** The log's identity, fixed when the log is created: its origin and its Ed25519 key. */
export interface LogIdentity {
  origin: string;
  publicKey: Uint8Array;
  publicKeyPem: string;
  privateKey: crypto.KeyObject;
  keyIdHex: string;
  verifierKey: string;
}

export interface SignedCheckpoint {
  treeSize: number;
  rootHash: Uint8Array;
  note: string;
  signature: string;
  timestamp: Date;
}

/** Signs the C2SP checkpoint for (size, root) as a signed note. */
export function signCheckpoint(id: LogIdentity, treeSize: number, rootHash: Uint8Array): SignedCheckpoint {
  const body = formatCheckpointBody(id.origin, treeSize, rootHash);
  const sig = signEd25519(id.privateKey, utf8Encode(body));
  return {
    treeSize,
    rootHash,
    note: formatSignedNote(body, id.origin, id.publicKey, sig),
    signature: noteSignatureBase64(id.origin, id.publicKey, sig),
    timestamp: new Date(),
  };
}

function toIdentity(origin: string, publicKey: Uint8Array, privateKeyEnc: string): LogIdentity {
  return {
    origin,
    publicKey,
    publicKeyPem: publicKeyToPem(publicKey),
    privateKey: openPrivateKey(privateKeyEnc, `log:${origin}`),
    keyIdHex: Buffer.from(noteKeyId(origin, publicKey)).toString("hex"),
    verifierKey: verifierKey(origin, publicKey),
  };
}

async function createLog(tx: Tx): Promise<void> {
  const { logOrigin } = getConfig();
  const pair = generateEd25519();
  const privateKeyEnc = sealPrivateKey(pair.privateKey, `log:${logOrigin}`);
  const now = new Date();
  const root = emptyRootHash();
  await tx.log.create({
    data: { id: 1, origin: logOrigin, publicKey: dbBytes(pair.publicRaw), privateKeyEnc, treeSize: 0n, rootHash: dbBytes(root), createdAt: now, updatedAt: now },
  });
  const cp = signCheckpoint(toIdentity(logOrigin, pair.publicRaw, privateKeyEnc), 0, root);
  await tx.checkpoint.create({ data: { ...cp, treeSize: 0n, rootHash: dbBytes(cp.rootHash) } });
}

async function loadIdentity(): Promise<LogIdentity> {
  const db = getDb();
  let row = await db.read.log.findUnique({ where: { id: 1 } });
  if (!row) {
    try {
      await db.write(async (tx) => {
        if (!(await tx.log.findUnique({ where: { id: 1 }, select: { id: true } }))) await createLog(tx);
      });
    } catch (err) {
      // Another instance created it first (unique violation on id 1): read theirs.
      if (!(await db.read.log.findUnique({ where: { id: 1 }, select: { id: true } }))) throw err;
    }
    row = await db.read.log.findUniqueOrThrow({ where: { id: 1 } });
  }
  const { logOrigin, logOriginExplicit } = getConfig();
  if (row.origin !== logOrigin) {
    if (logOriginExplicit) {
      throw new Error(`HALLMARK_LOG_ORIGIN is "${logOrigin}" but this log was created as "${row.origin}"; a log's origin cannot change.`);
    }
    console.warn(`[hallmark] log origin stays "${row.origin}" (created so); the base URL now suggests "${logOrigin}".`);
  }
  return toIdentity(row.origin, new Uint8Array(row.publicKey), row.privateKeyEnc);
}

let identity: Promise<LogIdentity> | undefined;

/** Loads the log's identity, creating the log (empty, with a signed checkpoint of size 0) on first use. */
export function getLogIdentity(): Promise<LogIdentity> {
  identity ??= loadIdentity().catch((err) => {
    identity = undefined;
    throw err;
  });
  return identity;
}
