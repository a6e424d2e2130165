import "server-only";
import { getStore } from "../store";
import { buildConsistencyProof, buildInclusionProof } from "./merkle-proof";
import { readNodesCached } from "./node-cache";
import type { NodePosition } from "./merkle-tree";

const getNodes = (positions: NodePosition[]) => readNodesCached(positions, (p) => getStore().reads.nodes(p));

/** Inclusion proof of leaf `index` in the tree of `size`: O(log size) stored nodes. */
export function proveInclusion(index: number, size: number): Promise<Uint8Array[]> {
  return buildInclusionProof(index, size, getNodes);
}

/** Consistency proof between sizes `first` ≤ `second`: O(log second) stored nodes. */
export function proveConsistency(first: number, second: number): Promise<Uint8Array[]> {
  return buildConsistencyProof(first, second, getNodes);
}
