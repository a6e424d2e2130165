import "server-only";
import { MIN_LEVEL } from "../merkle/cached-levels";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import { processWide } from "../process-wide";

/**
 * Stored nodes are immutable (a perfect subtree's hash never changes), so the upper levels of
 * the tree can be kept in memory with no invalidation at all. Only levels >= MIN_LEVEL are
 * kept: about 2n / 2^MIN_LEVEL nodes (62k for a million leaves), from which a proof takes all
 * but its lowest MIN_LEVEL nodes; which level pays best is measured in docs/performance.md,
 * "Choices in the hot paths". Bounded: when full, it starts over.
 *
 * The hashes sit side by side in one slab, found by a Map from a number to their slot: at the
 * bound this holds far less than a Map of `level:index` strings to 32-byte Uint8Arrays holds for
 * the same 8 MB of hashes (measured: docs/performance.md, "Memory"). A slab's slot is
 * written once: starting over takes a new slab, so a hash handed out (a view into a slab) never
 * changes under its holder. Such a view keeps its whole slab (8 MB) alive: hold one for a
 * request, not longer. The first slab is made by the first node kept.
 */
/** Nodes kept at most. */
export const NODE_CACHE_CAPACITY = 250_000;
const HASH_BYTES = 32;

interface Slab {
  readonly hashes: Uint8Array;
  /** Slot of each node kept, by slotKey. */
  readonly slots: Map<number, number>;
}
const newSlab = (): Slab => ({ hashes: new Uint8Array(NODE_CACHE_CAPACITY * HASH_BYTES), slots: new Map() });
const cache = processWide("tree-node-slab", (): { slab?: Slab } => ({}));

/** One number per node (a log of 2^52 leaves would be past it: such a node is not kept). */
const slotKey = (p: NodePosition): number | undefined => {
  const key = p.index * 64 + p.level;
  return Number.isSafeInteger(key) ? key : undefined;
};

/** Nodes kept, for /metrics. */
export const nodeCacheEntries = () => cache.slab?.slots.size ?? 0;

function cached(p: NodePosition): Uint8Array | undefined {
  const { slab } = cache;
  if (p.level < MIN_LEVEL || !slab) return undefined;
  const key = slotKey(p);
  const slot = key === undefined ? undefined : slab.slots.get(key);
  return slot === undefined ? undefined : slab.hashes.subarray(slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
}

function keep(p: NodePosition, hash: Uint8Array): void {
  const key = slotKey(p);
  if (p.level < MIN_LEVEL || key === undefined || hash.length !== HASH_BYTES) return;
  let slab = (cache.slab ??= newSlab());
  if (slab.slots.has(key)) return;
  if (slab.slots.size >= NODE_CACHE_CAPACITY) slab = cache.slab = newSlab();
  const slot = slab.slots.size;
  slab.hashes.set(hash, slot * HASH_BYTES);
  slab.slots.set(key, slot);
}

type Read = (positions: readonly NodePosition[]) => Promise<Map<string, Uint8Array>>;

/** Nodes from `known` (already read with something else), the cache, else one `read`. */
export function readNodesCached(
  positions: readonly NodePosition[],
  read: Read,
  known?: ReadonlyMap<string, Uint8Array>,
): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  const missing: NodePosition[] = [];
  for (const p of positions) {
    const key = nodeKey(p.level, p.index);
    const hit = known?.get(key) ?? cached(p);
    if (hit) found.set(key, hit);
    else missing.push(p);
  }
  if (missing.length === 0) return Promise.resolve(found);
  return read(missing).then((fetched) => {
    for (const p of missing) {
      const key = nodeKey(p.level, p.index);
      const hash = fetched.get(key);
      if (!hash) continue;
      found.set(key, hash);
      keep(p, hash);
    }
    return found;
  });
}
