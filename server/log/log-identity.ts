import "server-only";
import { logger } from "../observability/logger.mjs";
import type crypto from "node:crypto";
import { formatCheckpointBody, formatSignedNote, noteKeyId, noteSignatureBase64, verifierKey } from "@/lib/verify/checkpoint";
import { utf8Encode } from "@/lib/verify/encoding";
import { publicKeyToPem } from "@/lib/verify/keys";
import { emptyRootHash } from "@/lib/verify/merkle";
import { getConfig } from "../config";
import { keptValue } from "../kept-value";
import { shardOf } from "../merkle/positions";
import { dbBytes, getDb, type Tx } from "../db";
import { generateEd25519, openPrivateKey, sealPrivateKey, signEd25519 } from "../crypto/key-custody";

/** One Ed25519 key of the log. */
export interface LogKey {
  publicKey: Uint8Array;
  publicKeyPem: string;
  keyIdHex: string;
  verifierKey: string;
  /** When it began to sign (null: when the log was created). */
  signsFrom: Date | null;
  /** When it stops signing (null: the current key). */
  signsUntil: Date | null;
}

/**
 * The log's identity: the current shard (server/merkle/positions.ts), its origin and key, and for shard 0 the
 * keys that replaced one another under its origin, each signing beside its successor until its
 * overlap ended.
 */
export interface LogIdentity extends LogKey {
  origin: string;
  shard: number;
  privateKey: crypto.KeyObject;
  /** Retired keys still inside their overlap when the identity was read, with their private halves. */
  overlapping: (LogKey & { privateKey: crypto.KeyObject })[];
  /** Every retired key, newest first (public halves only). */
  retired: LogKey[];
}

export interface SignedCheckpoint {
  treeSize: number;
  rootHash: Uint8Array;
  note: string;
  signature: string;
  timestamp: Date;
}

/**
 * Signs the C2SP checkpoint for (size, root) as a signed note: by the current key, then by each
 * retired key still inside its overlap (one signature line each, same name, distinct key IDs),
 * so a verifier holding either key accepts it. `signature` is the current key's.
 */
export function signCheckpoint(id: LogIdentity, treeSize: number, rootHash: Uint8Array): SignedCheckpoint {
  const body = formatCheckpointBody(id.origin, treeSize, rootHash);
  const message = utf8Encode(body);
  const sig = signEd25519(id.privateKey, message);
  const now = new Date();
  let note = formatSignedNote(body, id.origin, id.publicKey, sig);
  for (const k of id.overlapping) {
    if (k.signsUntil && k.signsUntil <= now) continue;
    note += `\u2014 ${id.origin} ${noteSignatureBase64(id.origin, k.publicKey, signEd25519(k.privateKey, message))}\n`;
  }
  return { treeSize, rootHash, note, signature: noteSignatureBase64(id.origin, id.publicKey, sig), timestamp: now };
}

function toKey(origin: string, publicKey: Uint8Array, signsFrom: Date | null, signsUntil: Date | null): LogKey {
  return {
    publicKey,
    publicKeyPem: publicKeyToPem(publicKey),
    keyIdHex: Buffer.from(noteKeyId(origin, publicKey)).toString("hex"),
    verifierKey: verifierKey(origin, publicKey),
    signsFrom,
    signsUntil,
  };
}

type RetiredRow = { publicKey: Uint8Array; privateKeyEnc: string; signsFrom: Date; signsUntil: Date };

export function toIdentity(
  origin: string,
  shard: number,
  publicKey: Uint8Array,
  privateKeyEnc: string,
  keySince: Date | null = null,
  retired: RetiredRow[] = [],
): LogIdentity {
  const now = new Date();
  const aad = `log:${origin}`;
  return {
    origin,
    shard,
    ...toKey(origin, publicKey, keySince, null),
    privateKey: openPrivateKey(privateKeyEnc, aad),
    overlapping: retired
      .filter((r) => r.signsUntil > now)
      .map((r) => ({
        ...toKey(origin, new Uint8Array(r.publicKey), r.signsFrom, r.signsUntil),
        privateKey: openPrivateKey(r.privateKeyEnc, aad),
      })),
    retired: [...retired]
      .sort((a, b) => b.signsUntil.getTime() - a.signsUntil.getTime())
      .map((r) => toKey(origin, new Uint8Array(r.publicKey), r.signsFrom, r.signsUntil)),
  };
}

async function createLog(tx: Tx): Promise<void> {
  const { logOrigin } = getConfig();
  const pair = generateEd25519();
  const privateKeyEnc = sealPrivateKey(pair.privateKey, `log:${logOrigin}`);
  const now = new Date();
  const root = emptyRootHash();
  await tx.log.create({
    data: {
      id: 1,
      origin: logOrigin,
      publicKey: dbBytes(pair.publicRaw),
      privateKeyEnc,
      treeSize: 0n,
      rootHash: dbBytes(root),
      createdAt: now,
      updatedAt: now,
    },
  });
  await tx.logShard.create({ data: { shard: 0, origin: logOrigin, publicKey: dbBytes(pair.publicRaw), createdAt: now } });
  const cp = signCheckpoint(toIdentity(logOrigin, 0, pair.publicRaw, privateKeyEnc), 0, root);
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
  const shard = shardOf(row.treeSize);
  // The configured origin names the log as created (shard 0); a rotation's shards are named apart.
  const first = shard === 0 ? row.origin : (await db.read.logShard.findUniqueOrThrow({ where: { shard: 0 } })).origin;
  const { logOrigin, logOriginExplicit } = getConfig();
  if (first !== logOrigin) {
    if (logOriginExplicit) {
      throw new Error(`HALLMARK_LOG_ORIGIN is "${logOrigin}" but this log was created as "${first}"; a log's origin cannot change.`);
    }
    logger.warn({ origin: first, suggested: logOrigin }, "the log origin stays as created; the base URL now suggests another");
  }
  // Keys retired under shard 0's origin sign only there (a new shard ended their overlaps).
  const retired = shard === 0 ? await db.read.retiredLogKey.findMany() : [];
  return toIdentity(row.origin, shard, new Uint8Array(row.publicKey), row.privateKeyEnc, row.keySince, retired);
}

/**
 * The identity is re-read every REFRESH_MS (in the background: a caller never waits once it has
 * been read), so a key rotated by another process signs on every instance within that time.
 * An append that finds the log row in another shard than its identity's reads it at once
 * (reloadLogIdentity), so no checkpoint is ever signed with another shard's key.
 */
const REFRESH_MS = 5_000;
const identity = keptValue(loadIdentity, REFRESH_MS);

/** Loads the log's identity, creating the log (empty, with a signed checkpoint of size 0) on first use. */
export const getLogIdentity = (): Promise<LogIdentity> => identity.get();

/** Reads the identity now (after this process, or the log row, says the shard changed). */
export const reloadLogIdentity = (): Promise<LogIdentity> => identity.fresh();
