import "server-only";
import { getStore } from "../store";
import { buildConsistencyProof, buildInclusionProof } from "./merkle-proof";

/** Inclusion proof of leaf `index` in the tree of `size`: O(log size) stored nodes, one query. */
export function proveInclusion(index: number, size: number): Promise<Uint8Array[]> {
  return buildInclusionProof(index, size, (positions) => getStore().reads.nodes(positions));
}

/** Consistency proof between sizes `first` ≤ `second`: O(log second) stored nodes, one query. */
export function proveConsistency(first: number, second: number): Promise<Uint8Array[]> {
  return buildConsistencyProof(first, second, (positions) => getStore().reads.nodes(positions));
}
