import "server-only";
import { processWide } from "../process-wide";
import { getConfig } from "../config";
import { getDb } from "../db";
import { getStore } from "../store";
import type { Checkpoint } from "../store/types";
import { witnessPolicy } from "./witness-policy";
import { quorumMet, type Policy } from "@/lib/verify";
import { logMlDsaKey } from "./log-ml-dsa";
import { positionOf, shardOf } from "../merkle/positions";
import { shardOrThrow } from "./shards";

/**
 * The published checkpoint. Without a witness policy, the newest. With one, by
 * HALLMARK_WITNESS_MODE: fail-closed (the default), the newest checkpoint whose cosignatures meet
 * the quorum, or null until one does; fail-open, the newest checkpoint. Either way its note
 * carries every cosignature stored for it. Read at most every CACHE_MS per process (it moves
 * about once a second), so a hot path pays for it rarely.
 */
const CACHE_MS = 500;
/** A read's answer once it came (kept as a value: see server/kept-value.ts), its promise while it is under way. */
type Cached = { at: number; value?: Checkpoint | null; pending?: Promise<Checkpoint | null> };
const cached = processWide("published-checkpoint", () => ({
  hit: undefined as Cached | undefined,
  witnessed: undefined as Cached | undefined,
  /** Per shard other than the published checkpoint's: its newest witnessed checkpoint (shardCheckpoint). */
  shards: new Map<number, Cached>(),
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

type Slot = { get(): Cached | undefined; set(c: Cached | undefined): void };
const slot = (name: "hit" | "witnessed"): Slot => ({ get: () => cached[name], set: (c) => void (cached[name] = c) });

/** The slot's read if made less than CACHE_MS ago, else a new one kept there (and dropped if it fails). */
function cachedRead(at: Slot, read: () => Promise<Checkpoint | null>): Promise<Checkpoint | null> {
  const hit = at.get();
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.pending ?? Promise.resolve(hit.value ?? null);
  const entry: Cached = { at: Date.now() };
  const pending = read().then(
    (value) => {
      entry.value = value;
      entry.pending = undefined;
      return value;
    },
    (err) => {
      if (at.get() === entry) at.set(undefined);
      throw err;
    },
  );
  entry.pending = pending;
  at.set(entry);
  return pending;
}

export function publishedCheckpoint(): Promise<Checkpoint | null> {
  return cachedRead(slot("hit"), () => readPublished(!quorumApplies() || getConfig().witnessMode === "fail-open"));
}

/** The newest checkpoint the witness policy's quorum has cosigned, whatever the mode; null until one has. */
export function witnessedCheckpoint(): Promise<Checkpoint | null> {
  if (!quorumApplies() || getConfig().witnessMode === "fail-closed") return publishedCheckpoint();
  // fail-open publishes the newest: the witnessed one is read apart, under the same cache rule.
  return cachedRead(slot("witnessed"), () => readPublished(false));
}

/**
 * The newest checkpoint of shard `shard` (server/merkle/positions.ts) that a proof of its entries is built on:
 * the witnessed checkpoint if it is that shard's, else (a shard a rotation froze) the shard's
 * newest whose own cosignatures meet the quorum, or its newest when no quorum applies. Null
 * while none of the shard's checkpoints meets the quorum.
 */
export async function shardCheckpoint(shard: number): Promise<Checkpoint | null> {
  const witnessed = await witnessedCheckpoint();
  if (witnessed && shardOf(witnessed.treeSize) === shard) return witnessed;
  const at: Slot = {
    get: () => cached.shards.get(shard),
    set: (c) => void (c ? cached.shards.set(shard, c) : cached.shards.delete(shard)),
  };
  return cachedRead(at, async () => {
    const within = { gte: BigInt(positionOf(shard, 0)), lt: BigInt(positionOf(shard + 1, 0)) };
    const policy = witnessPolicy();
    const db = getDb().read;
    if (!policy || !quorumApplies()) {
      const newest = await db.checkpoint.findFirst({ where: { treeSize: within }, orderBy: { treeSize: "desc" } });
      return newest && withCosignatures(newest);
    }
    const rows = await db.cosignature.findMany({
      where: { treeSize: within },
      select: { treeSize: true, witnessKey: true },
      orderBy: { treeSize: "desc" },
      take: COSIGNATURE_WINDOW,
    });
    const size = newestQuorum(policy, rows);
    const row = size === null ? null : await db.checkpoint.findUnique({ where: { treeSize: size } });
    return row && withCosignatures(row);
  });
}

/** Cosignature rows read to find a quorum: the newest checkpoints' (a few per second). */
export const COSIGNATURE_WINDOW = 2_000;

/**
 * The largest tree size among `rows` (cosignatures, newest first) whose own cosignatures meet the
 * policy's quorum: cosignatures of different sizes never add up. Null if none does.
 */
export function newestQuorum(policy: Policy, rows: readonly { treeSize: bigint; witnessKey: string }[]): bigint | null {
  const bySize = new Map<bigint, Set<string>>();
  for (const r of rows) (bySize.get(r.treeSize) ?? bySize.set(r.treeSize, new Set()).get(r.treeSize)!).add(r.witnessKey);
  for (const [size, keys] of bySize) {
    const names = new Set(policy.witnesses.filter((w) => keys.has(w.key.vkey)).map((w) => w.name));
    if (quorumMet(policy, names)) return size;
  }
  return null;
}

/** Forgets the cached value (after this process published a newer checkpoint or stored a cosignature). */
export function forgetPublished(): void {
  cached.hit = undefined;
  cached.witnessed = undefined;
  cached.shards.clear();
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
  return row && withCosignatures(row);
}

/** The checkpoint's note with every cosignature stored for it: the log's own ML-DSA-44 line first, then the witnesses in the policy's order. */
async function withCosignatures(row: Checkpoint): Promise<Checkpoint> {
  const order = new Map((witnessPolicy()?.witnesses ?? []).map((w, i) => [w.key.vkey, i]));
  order.set(logMlDsaKey((await shardOrThrow(shardOf(row.treeSize))).origin).vkey, -1);
  const cosignatures = (await getDb().read.cosignature.findMany({ where: { treeSize: row.treeSize } })).sort(
    (a, b) => (order.get(a.witnessKey) ?? 1e9) - (order.get(b.witnessKey) ?? 1e9),
  );
  return { ...row, note: row.note + cosignatures.map((c) => `\u2014 ${c.keyName} ${c.signature}\n`).join("") };
}
