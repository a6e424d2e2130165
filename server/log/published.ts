import "server-only";
import { processWide } from "../process-wide";
import { getConfig } from "../config";
import { getDb } from "../db";
import { getStore } from "../store";
import type { Checkpoint } from "../store/types";
import { witnessPolicy } from "./witness-policy";
import { getLogIdentity } from "./log-identity";
import { logMlDsaKey } from "./log-ml-dsa";

/**
 * The published checkpoint. Without a witness policy, the newest. With one, by
 * HALLMARK_WITNESS_MODE: fail-closed (the default), the newest checkpoint whose cosignatures meet
 * the quorum, or null until one does; fail-open, the newest checkpoint. Either way its note
 * carries every cosignature stored for it. Read at most every CACHE_MS per process (it moves
 * about once a second), so a hot path pays for it rarely.
 */
const CACHE_MS = 500;
type Cached = { at: number; value: Promise<Checkpoint | null> };
const cached = processWide("published-checkpoint", () => ({
  hit: undefined as Cached | undefined,
  witnessed: undefined as Cached | undefined,
  /** Resolved, and replaced, each time this process publishes: proofs waiting for a witnessed checkpoint wake up. */
  moved: signal(),
}));

/** A promise and the function that resolves it (Promise.withResolvers, which Node 20 lacks). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Whether checkpoints must meet a quorum: a witness policy naming witnesses, and a quorum other than "none". */
export function quorumApplies(): boolean {
  const policy = witnessPolicy();
  return Boolean(policy && policy.witnesses.length > 0 && policy.quorum !== "none");
}

/** `slot`'s read if made less than CACHE_MS ago, else a new one kept there (and dropped if it fails). */
function cachedRead(slot: "hit" | "witnessed", read: () => Promise<Checkpoint | null>): Promise<Checkpoint | null> {
  const hit = cached[slot];
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = read();
  cached[slot] = { at: Date.now(), value };
  value.catch(() => {
    if (cached[slot]?.value === value) cached[slot] = undefined;
  });
  return value;
}

export function publishedCheckpoint(): Promise<Checkpoint | null> {
  return cachedRead("hit", () => readPublished(!quorumApplies() || getConfig().witnessMode === "fail-open"));
}

/** The newest checkpoint the witness policy's quorum has cosigned, whatever the mode; null until one has. */
export function witnessedCheckpoint(): Promise<Checkpoint | null> {
  if (!quorumApplies() || getConfig().witnessMode === "fail-closed") return publishedCheckpoint();
  // fail-open publishes the newest: the witnessed one is read apart, under the same cache rule.
  return cachedRead("witnessed", () => readPublished(false));
}

/** Forgets the cached value (after this process published a newer checkpoint or stored a cosignature). */
export function forgetPublished(): void {
  cached.hit = undefined;
  cached.witnessed = undefined;
  const moved = cached.moved;
  cached.moved = signal();
  moved.resolve();
}

/** Resolves the next time this process forgets the published checkpoint (see forgetPublished). */
export function publishedMoved(): Promise<void> {
  return cached.moved.promise;
}

async function readPublished(newest: boolean): Promise<Checkpoint | null> {
  const db = getDb();
  let row: Checkpoint | null;
  if (newest) row = await getStore().reads.latestCheckpoint();
  else {
    const pub = await db.read.publishedCheckpoint.findUnique({ where: { id: 1 } });
    row = pub ? await db.read.checkpoint.findUnique({ where: { treeSize: pub.treeSize } }) : null;
  }
  if (!row) return null;
  // The log's own ML-DSA-44 line first, then the witnesses in the policy's order.
  const order = new Map((witnessPolicy()?.witnesses ?? []).map((w, i) => [w.key.vkey, i]));
  order.set(logMlDsaKey((await getLogIdentity()).origin).vkey, -1);
  const cosignatures = (await db.read.cosignature.findMany({ where: { treeSize: row.treeSize } })).sort(
    (a, b) => (order.get(a.witnessKey) ?? 1e9) - (order.get(b.witnessKey) ?? 1e9),
  );
  return { ...row, note: row.note + cosignatures.map((c) => `\u2014 ${c.keyName} ${c.signature}\n`).join("") };
}
