import "server-only";
import { noteKeyId, verifierKey } from "@/lib/verify/checkpoint";
import { getDb } from "../db";
import { keptValue } from "../kept-value";
import { processWide } from "../process-wide";
import { logMlDsaKey } from "./log-ml-dsa";

/** One log of the chain a key rotation makes (the log_shards row; server/merkle/positions.ts). */
export interface Shard {
  shard: number;
  origin: string;
  publicKey: Uint8Array;
  keyIdHex: string;
  verifierKey: string;
  mlDsa44VerifierKey: string;
  createdAt: Date;
  /** null while it is the current shard. */
  frozenAt: Date | null;
  /** Its final size once frozen (its last entry is the successor statement). */
  finalSize: number | null;
}

async function readShards(): Promise<Shard[]> {
  const rows = await getDb().read.logShard.findMany({ orderBy: { shard: "asc" } });
  return rows.map((r) => {
    const publicKey = new Uint8Array(r.publicKey);
    return {
      shard: r.shard,
      origin: r.origin,
      publicKey,
      keyIdHex: Buffer.from(noteKeyId(r.origin, publicKey)).toString("hex"),
      verifierKey: verifierKey(r.origin, publicKey),
      mlDsa44VerifierKey: logMlDsaKey(r.origin).vkey,
      createdAt: r.createdAt,
      frozenAt: r.frozenAt,
      finalSize: r.finalSize === null ? null : Number(r.finalSize),
    };
  });
}

/**
 * The shards, oldest first. A shard's origin and key never change and it is frozen once, so the
 * list is read again in the background once older than REFRESH_MS, and at once when a shard it
 * lacks is asked for.
 */
const REFRESH_MS = 5_000;
const shards = processWide("log-shards", () => keptValue(readShards, REFRESH_MS));
/** The shards; `fresh`: read now (after a rotation this process may not have seen). */
export const getShards = (fresh = false): Promise<Shard[]> => (fresh ? shards.fresh() : shards.get());

/** Shard `shard`, or null if there is none. */
export async function getShard(shard: number): Promise<Shard | null> {
  const known = (await getShards()).find((s) => s.shard === shard);
  return known ?? (await getShards(true)).find((s) => s.shard === shard) ?? null;
}

/** Shard `shard`, which a stored position names: it exists. */
export async function shardOrThrow(shard: number): Promise<Shard> {
  const s = await getShard(shard);
  if (!s) throw new Error(`log shard ${shard} is not in log_shards`);
  return s;
}
