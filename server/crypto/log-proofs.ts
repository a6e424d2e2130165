import "server-only";
import { getStore } from "../store";
import { buildConsistencyProof, buildInclusionProof, type RangeCache } from "./merkle-proof";
import { readNodesCached } from "./node-cache";
import type { NodePosition } from "./merkle-tree";

const getNodes = (positions: NodePosition[]) => readNodesCached(positions, (p) => getStore().reads.nodes(p));

/**
 * The right-edge composite hashes of recent tree sizes (≤ log2 n per size). They are
 * immutable, so every proof against the same checkpoint reuses them instead of reading
 * their pieces and hashing them again. Bounded: when full, it starts over.
 */
const RANGE_CAPACITY = 4096;
const ranges = new Map<string, Uint8Array>();
const rangeCache: RangeCache = {
  get: (lo, hi) => ranges.get(`${lo}:${hi}`),
  set: (lo, hi, hash) => {
    if (ranges.size >= RANGE_CAPACITY) ranges.clear();
    ranges.set(`${lo}:${hi}`, hash);
  },
};

/** Inclusion proof of leaf `index` in the tree of `size`: O(log size) stored nodes. */
export function proveInclusion(index: number, size: number): Promise<Uint8Array[]> {
  return buildInclusionProof(index, size, getNodes, rangeCache);
}

/** Consistency proof between sizes `first` ≤ `second`: O(log second) stored nodes. */
export function proveConsistency(first: number, second: number): Promise<Uint8Array[]> {
  return buildConsistencyProof(first, second, getNodes, rangeCache);
}
