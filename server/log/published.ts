import "server-only";
import { processWide } from "../process-wide";
import { getDb } from "../db";
import { getStore } from "../store";
import type { Checkpoint } from "../store/types";
import { witnessPolicy } from "./witness-policy";

/**
 * The published checkpoint: with a witness policy whose quorum is not "none", the newest
 * checkpoint whose cosignatures meet the quorum (until one does, the newest), its note carrying
 * every stored cosignature; without one, the newest checkpoint. Read at most every CACHE_MS
 * per process (it moves about once a second), so a hot path pays for it rarely.
 */
const CACHE_MS = 500;
type Cached = { at: number; value: Promise<Checkpoint | null> };
const cached = processWide("published-checkpoint", () => ({ hit: undefined as Cached | undefined }));

export function publishedCheckpoint(): Promise<Checkpoint | null> {
  const policy = witnessPolicy();
  if (!policy || policy.witnesses.length === 0) return getStore().reads.latestCheckpoint();
  const hit = cached.hit;
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = readPublished(policy.quorum === "none");
  cached.hit = { at: Date.now(), value };
  value.catch(() => {
    if (cached.hit?.value === value) cached.hit = undefined;
  });
  return value;
}

/** Forgets the cached value (after this process published a newer checkpoint). */
export function forgetPublished(): void {
  cached.hit = undefined;
}

async function readPublished(newest: boolean): Promise<Checkpoint | null> {
  const db = getDb();
  const pub = newest ? null : await db.read.publishedCheckpoint.findUnique({ where: { id: 1 } });
  const row = pub ? await db.read.checkpoint.findUnique({ where: { treeSize: pub.treeSize } }) : await getStore().reads.latestCheckpoint();
  if (!row) return null;
  const order = new Map(witnessPolicy()!.witnesses.map((w, i) => [w.key.vkey, i]));
  const cosignatures = (await db.read.cosignature.findMany({ where: { treeSize: row.treeSize } })).sort(
    (a, b) => (order.get(a.witnessKey) ?? 1e9) - (order.get(b.witnessKey) ?? 1e9),
  );
  return { ...row, note: row.note + cosignatures.map((c) => `\u2014 ${c.keyName} ${c.signature}\n`).join("") };
}
