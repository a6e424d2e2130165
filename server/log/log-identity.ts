import "server-only";
import { logger } from "../observability/logger.mjs";
import type crypto from "node:crypto";
import { formatCheckpointBody, formatSignedNote, noteKeyId, noteSignatureBase64, verifierKey } from "@/lib/verify/checkpoint";
import { utf8Encode } from "@/lib/verify/encoding";
import { publicKeyToPem } from "@/lib/verify/keys";
import { emptyRootHash } from "@/lib/verify/merkle";
import { getConfig } from "../config";
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
 * The log's identity: its origin (fixed when the log is created), its current key, and the
 * keys a rotation replaced, which keep signing beside it until their overlap ends.
 */
export interface LogIdentity extends LogKey {
  origin: string;
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

function toIdentity(
  origin: string,
  publicKey: Uint8Array,
  privateKeyEnc: string,
  keySince: Date | null = null,
  retired: RetiredRow[] = [],
): LogIdentity {
  const now = new Date();
  const aad = `log:${origin}`;
  return {
    origin,
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
    logger.warn({ origin: row.origin, suggested: logOrigin }, "the log origin stays as created; the base URL now suggests another");
  }
  const retired = await db.read.retiredLogKey.findMany();
  return toIdentity(row.origin, new Uint8Array(row.publicKey), row.privateKeyEnc, row.keySince, retired);
}

/**
 * The identity is re-read every REFRESH_MS (in the background: a caller never waits once it has
 * been read), so a key rotated by another process signs on every instance within that time.
 * A rotation's overlap must therefore be longer (rotateLogKey requires at least MIN_OVERLAP_MS).
 */
const REFRESH_MS = 5_000;
export const MIN_OVERLAP_MS = 30_000;
let identity: Promise<LogIdentity> | undefined;
let loadedAt = 0;

/** Loads the log's identity, creating the log (empty, with a signed checkpoint of size 0) on first use. */
export function getLogIdentity(): Promise<LogIdentity> {
  if (identity && Date.now() - loadedAt > REFRESH_MS) {
    loadedAt = Date.now();
    loadIdentity().then(
      (fresh) => (identity = Promise.resolve(fresh)),
      () => {}, // keep the one we have; the next call tries again
    );
  }
  if (!identity) {
    loadedAt = Date.now();
    identity = loadIdentity().catch((err) => {
      identity = undefined;
      throw err;
    });
  }
  return identity;
}

/**
 * Rotates the log key: a new key becomes current at once, and the old one keeps signing beside
 * it for `overlapMs`, so verifiers and witnesses holding either key keep working meanwhile.
 */
export async function rotateLogKey(overlapMs: number): Promise<{ current: LogKey; previous: LogKey }> {
  if (!Number.isFinite(overlapMs) || overlapMs < MIN_OVERLAP_MS) throw new Error(`the overlap must be at least ${MIN_OVERLAP_MS / 1000} s`);
  const id = await loadIdentity();
  const pair = generateEd25519();
  const now = new Date();
  const until = new Date(now.getTime() + overlapMs);
  const row = await getDb().write(async (tx) => {
    const log = await tx.log.findUniqueOrThrow({ where: { id: 1 } });
    await tx.retiredLogKey.create({
      data: {
        keyId: id.keyIdHex,
        publicKey: log.publicKey,
        privateKeyEnc: log.privateKeyEnc,
        signsFrom: log.keySince ?? log.createdAt,
        signsUntil: until,
      },
    });
    await tx.log.update({
      where: { id: 1 },
      data: { publicKey: dbBytes(pair.publicRaw), privateKeyEnc: sealPrivateKey(pair.privateKey, `log:${id.origin}`), keySince: now },
    });
    return log;
  });
  return {
    current: toKey(id.origin, pair.publicRaw, now, null),
    previous: toKey(id.origin, new Uint8Array(row.publicKey), row.keySince ?? row.createdAt, until),
  };
}
