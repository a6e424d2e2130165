import "server-only";
import { getStore } from "../store";
import { processWide } from "../process-wide";
import { buildConsistencyProof, buildInclusionProof, type GetNodes, type RangeCache } from "./merkle-proof";
import { readNodesCached } from "./node-cache";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import { storedNode } from "../merkle/positions";

const readStored = (positions: readonly NodePosition[]) => getStore().reads.nodes(positions);

/**
 * Shard `shard`'s nodes by its own positions, read at their stored ones (server/merkle/positions.ts), from
 * `known` (stored positions), the node cache, else one read.
 */
function shardNodes(shard: number, known?: ReadonlyMap<string, Uint8Array>): GetNodes {
  if (shard === 0) return (positions) => readNodesCached(positions, readStored, known);
  return async (positions) => {
    const at = positions.map((p) => storedNode(shard, p));
    const found = await readNodesCached(at, readStored, known);
    const out = new Map<string, Uint8Array>();
    positions.forEach((p, i) => {
      const hash = found.get(nodeKey(at[i]!.level, at[i]!.index));
      if (hash) out.set(nodeKey(p.level, p.index), hash);
    });
    return out;
  };
}

/**
 * The right-edge composite hashes of recent tree sizes (≤ log2 n per size). They are
 * immutable, so every proof against the same checkpoint reuses them instead of reading
 * their pieces and hashing them again. Bounded: when full, it starts over.
 */
const RANGE_CAPACITY = 4096;
const ranges = processWide("tree-range-cache", () => new Map<string, Uint8Array>());
const rangeCache = (shard: number): RangeCache => ({
  get: (lo, hi) => ranges.get(`${shard}:${lo}:${hi}`),
  set: (lo, hi, hash) => {
    if (ranges.size >= RANGE_CAPACITY) ranges.clear();
    ranges.set(`${shard}:${lo}:${hi}`, hash);
  },
});

/**
 * Inclusion proof of leaf `index` in shard `shard`'s tree of `size` (both its own, not stored
 * positions): O(log size) stored nodes, of which those in `prefetched` (stored positions, read
 * along with the attestation) are not read again.
 */
export function proveInclusion(
  shard: number,
  index: number,
  size: number,
  prefetched?: ReadonlyMap<string, Uint8Array>,
): Promise<Uint8Array[]> {
  return buildInclusionProof(index, size, shardNodes(shard, prefetched?.size ? prefetched : undefined), rangeCache(shard));
}

/** Consistency proof between shard `shard`'s sizes `first` ≤ `second`: O(log second) stored nodes. */
export function proveConsistency(shard: number, first: number, second: number): Promise<Uint8Array[]> {
  return buildConsistencyProof(first, second, shardNodes(shard), rangeCache(shard));
}
