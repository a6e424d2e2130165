// RFC 9162 inclusion and consistency proofs assembled from stored perfect-subtree nodes
// (see merkle-tree.ts for the storage model).
//
// Each proof element is the MTH of some range [lo, hi) of the RFC 9162 recursion. A plan lists
// the ranges, decomposes each into perfect aligned nodes (what the database stores), and
// assembles the proof hashes once those nodes are read — all positions in ONE batched read.
//
// Why the read count is O(log n). Every range [lo, hi) visited by the recursion over D[0:n]
// is either perfect (hi - lo a power of two, lo a multiple of it) or a "right edge" range
// with hi = n: the root is a right-edge range, the left child of any range is perfect (its
// length k is a power of two and lo is a multiple of k), and the right child of a perfect range
// is perfect while that of a right-edge range is again right-edge. PATH and SUBPROOF follow
// one root-to-leaf path of length ≤ ⌈log2 n⌉, emitting one sibling per level, plus, for a
// consistency proof, possibly the final node itself. While the path stays on the right edge,
// the siblings it emits are left children, hence perfect. The first time it turns left, it
// emits the right-edge sibling [lo+k, n) — the only composite element — and from then on it is
// inside a perfect subtree, where every sibling is perfect. That composite range splits into
// one perfect piece per set bit of n - lo - k, i.e. ≤ ⌊log2 n⌋ pieces. So an inclusion proof
// reads ≤ 2⌈log2 n⌉ nodes and a consistency proof ≤ 2⌈log2 n⌉ + 1 (asserted by the tests).
import { isPow2 } from "../../lib/verify/merkle";
import { nodeHashNode as nodeHash } from "../crypto/hash";
import { assertSize, nodeKey, type NodePosition } from "../merkle/merkle-tree";

export type NodeMap = ReadonlyMap<string, Uint8Array>;
export type GetNodes = (positions: NodePosition[]) => Promise<NodeMap>;

/**
 * Hashes of composite ranges (not a perfect subtree: the right edge [lo, hi) of the tree of
 * hi leaves). MTH(D[lo:hi]) never changes once the log holds hi leaves, so a cache needs no
 * invalidation; every proof against the same tree size shares these few (≤ log2 n) ranges.
 */
export interface RangeCache {
  get(lo: number, hi: number): Uint8Array | undefined;
  set(lo: number, hi: number, hash: Uint8Array): void;
}

export interface ProofPlan {
  /** Distinct perfect nodes to read (keys: nodeKey(level, index)). */
  positions: NodePosition[];
  /** The proof hashes, leaf to root, from the nodes read. Throws if one is missing. */
  assemble(nodes: NodeMap): Uint8Array[];
}

type Range = readonly [lo: number, hi: number];

/** Largest power of two strictly less than n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 9162 §2.1.3.1 PATH(m, D[lo:hi]) as ranges, leaf to root. */
function pathRanges(m: number, lo: number, hi: number, out: Range[]): void {
  const n = hi - lo;
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m < k) {
    pathRanges(m, lo, lo + k, out);
    out.push([lo + k, hi]);
  } else {
    pathRanges(m - k, lo + k, hi, out);
    out.push([lo, lo + k]);
  }
}

/** RFC 9162 §2.1.4.1 SUBPROOF(m, D[lo:hi], b) as ranges. */
function subproofRanges(m: number, lo: number, hi: number, b: boolean, out: Range[]): void {
  const n = hi - lo;
  if (m === n) {
    if (!b) out.push([lo, hi]);
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    subproofRanges(m, lo, lo + k, b, out);
    out.push([lo + k, hi]);
  } else {
    subproofRanges(m - k, lo + k, hi, false, out);
    out.push([lo, lo + k]);
  }
}

/** True when [lo, hi) is a perfect aligned subtree: a stored node. */
const isPerfect = (lo: number, hi: number): boolean => isPow2(hi - lo) && lo % (hi - lo) === 0;

/** The perfect aligned nodes whose MTH-combination is MTH(D[lo:hi]). */
function rangePieces(lo: number, hi: number, out: NodePosition[]): void {
  const n = hi - lo;
  if (isPerfect(lo, hi)) {
    out.push({ level: Math.round(Math.log2(n)), index: lo / n });
    return;
  }
  const k = splitPoint(n);
  rangePieces(lo, lo + k, out);
  rangePieces(lo + k, hi, out);
}

function rangeHash(lo: number, hi: number, nodes: NodeMap): Uint8Array {
  const n = hi - lo;
  if (isPerfect(lo, hi)) {
    const key = nodeKey(Math.round(Math.log2(n)), lo / n);
    const hash = nodes.get(key);
    if (!hash) throw new Error(`merkle node ${key} is missing`);
    return hash;
  }
  const k = splitPoint(n);
  return nodeHash(rangeHash(lo, lo + k, nodes), rangeHash(lo + k, hi, nodes));
}

function planFor(ranges: Range[], cache?: RangeCache): ProofPlan {
  // Composite elements already known are taken now, not at assembly: the cache may have
  // dropped them by then, and their nodes are not read.
  const known = ranges.map(([lo, hi]) => (cache && !isPerfect(lo, hi) ? cache.get(lo, hi) : undefined));
  const pieces: NodePosition[] = [];
  ranges.forEach(([lo, hi], i) => {
    if (!known[i]) rangePieces(lo, hi, pieces);
  });
  const seen = new Set<string>();
  const positions = pieces.filter((p) => {
    const key = nodeKey(p.level, p.index);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const elementHash = ([lo, hi]: Range, i: number, nodes: NodeMap): Uint8Array => {
    const cached = known[i];
    if (cached) return cached;
    const hash = rangeHash(lo, hi, nodes);
    if (cache && !isPerfect(lo, hi)) cache.set(lo, hi, hash);
    return hash;
  };
  return { positions, assemble: (nodes) => ranges.map((r, i) => elementHash(r, i, nodes)) };
}

/** Plan for the inclusion proof of leaf `index` in the tree of `size` leaves. */
export function inclusionProofPlan(index: number, size: number, cache?: RangeCache): ProofPlan {
  assertSize(index, "index");
  assertSize(size);
  if (index >= size) throw new RangeError(`index ${index} is outside a tree of size ${size}`);
  const ranges: Range[] = [];
  pathRanges(index, 0, size, ranges);
  return planFor(ranges, cache);
}

/** Plan for the consistency proof from size m to size n (empty when m = 0 or m = n). */
export function consistencyProofPlan(m: number, n: number, cache?: RangeCache): ProofPlan {
  assertSize(m, "first size");
  assertSize(n, "second size");
  if (m > n) throw new RangeError(`first size ${m} exceeds second size ${n}`);
  const ranges: Range[] = [];
  if (m > 0 && m < n) subproofRanges(m, 0, n, true, ranges);
  return planFor(ranges, cache);
}

/** The RFC 9162 inclusion proof, leaf to root, with one batched node read. */
export async function buildInclusionProof(index: number, size: number, getNodes: GetNodes, cache?: RangeCache): Promise<Uint8Array[]> {
  const plan = inclusionProofPlan(index, size, cache);
  return plan.assemble(plan.positions.length > 0 ? await getNodes(plan.positions) : new Map());
}

/** The RFC 9162 consistency proof from m to n, with one batched node read. */
export async function buildConsistencyProof(m: number, n: number, getNodes: GetNodes, cache?: RangeCache): Promise<Uint8Array[]> {
  const plan = consistencyProofPlan(m, n, cache);
  return plan.assemble(plan.positions.length > 0 ? await getNodes(plan.positions) : new Map());
}
