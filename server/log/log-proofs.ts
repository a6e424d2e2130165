import "server-only";
import { getStore } from "../store";
import { processWide } from "../process-wide";
import { buildConsistencyProof, buildInclusionProof, type RangeCache } from "./merkle-proof";
import { readNodesCached } from "./node-cache";
import type { NodePosition } from "./merkle-tree";

const readStored = (positions: readonly NodePosition[]) => getStore().reads.nodes(positions);
const getNodes = (positions: NodePosition[]) => readNodesCached(positions, readStored);

/**
 * The right-edge composite hashes of recent tree sizes (≤ log2 n per size). They are
 * immutable, so every proof against the same checkpoint reuses them instead of reading
 * their pieces and hashing them again. Bounded: when full, it starts over.
 */
const RANGE_CAPACITY = 4096;
const ranges = processWide("tree-range-cache", () => new Map<string, Uint8Array>());
const rangeCache: RangeCache = {
  get: (lo, hi) => ranges.get(`${lo}:${hi}`),
  set: (lo, hi, hash) => {
    if (ranges.size >= RANGE_CAPACITY) ranges.clear();
    ranges.set(`${lo}:${hi}`, hash);
  },
};

/**
 * Inclusion proof of leaf `index` in the tree of `size`: O(log size) stored nodes, of which
 * those in `prefetched` (read along with the attestation) are not read again.
 */
export function proveInclusion(index: number, size: number, prefetched?: ReadonlyMap<string, Uint8Array>): Promise<Uint8Array[]> {
  const get = prefetched?.size ? (positions: NodePosition[]) => readNodesCached(positions, readStored, prefetched) : getNodes;
  return buildInclusionProof(index, size, get, rangeCache);
}

/** Consistency proof between sizes `first` ≤ `second`: O(log second) stored nodes. */
export function proveConsistency(first: number, second: number): Promise<Uint8Array[]> {
  return buildConsistencyProof(first, second, getNodes, rangeCache);
}
