// Pure helpers for an append-only RFC 9162 Merkle tree whose node hashes are stored.
//
// Storage model (the contract with the database layer):
//   A stored node is the hash of a PERFECT subtree, addressed (level, index), covering leaves
//   [index·2^level, (index+1)·2^level). Level 0 holds the leaf hashes. A node is written once,
//   when its last leaf is appended, and never changes afterwards. Hashes of non-perfect
//   ("right edge") subtrees are never stored: they are recomputed from perfect pieces.
//
// The frontier of a tree of size n is the list of perfect subtrees of the binary
// decomposition of [0, n), largest (leftmost) first: one per set bit of n. The root is the
// right-to-left fold of the frontier with nodeHash, which is exactly RFC 9162's MTH.
//
// No "server-only" import: these helpers are pure and are exercised directly by unit tests.
import { emptyRootHash, HASH_SIZE } from "../../lib/verify/merkle";
import { nodeHashNode as nodeHash } from "../crypto/hash";

export interface NodePosition {
  level: number;
  index: number;
}

export interface StoredNode extends NodePosition {
  hash: Uint8Array;
}

export interface AppendResult {
  /** Every perfect node completed by this append, leaves (level 0) included, in creation order. */
  newNodes: StoredNode[];
  /** Frontier hashes of the new tree, largest subtree first. */
  frontier: Uint8Array[];
  /** RFC 9162 MTH of the new tree. */
  root: Uint8Array;
  size: number;
}

/** The largest level a safe-integer tree can have (2^53 leaves). */
const MAX_LEVEL = 53;

/** Map key for a node position, as used by getNodes maps. */
export function nodeKey(level: number, index: number): string {
  return `${level}:${index}`;
}

export function assertSize(n: number, what = "size"): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a safe non-negative integer`);
}

/** True iff bit `level` of n is set (exact beyond 2^32, unlike `>>`). */
function bitSet(n: number, level: number): boolean {
  return Math.floor(n / 2 ** level) % 2 === 1;
}

/** Positions of the perfect subtrees decomposing [0, size), largest first. */
export function frontierPositions(size: number): NodePosition[] {
  assertSize(size);
  const out: NodePosition[] = [];
  let start = 0;
  for (let level = MAX_LEVEL; level >= 0; level--) {
    if (!bitSet(size, level)) continue;
    out.push({ level, index: start / 2 ** level });
    start += 2 ** level;
  }
  return out;
}

/** RFC 9162 MTH from the frontier hashes (largest first); SHA-256("") for the empty tree. */
export function rootFromFrontier(frontier: readonly Uint8Array[]): Uint8Array {
  if (frontier.length === 0) return emptyRootHash();
  let root = frontier[frontier.length - 1]!;
  for (let i = frontier.length - 2; i >= 0; i--) root = nodeHash(frontier[i]!, root);
  return root;
}

/**
 * Appends leaf hashes to a tree of `size` leaves whose frontier is `frontier`
 * (the hashes at frontierPositions(size), in that order). Pure: returns what to store.
 */
export function appendLeaves(size: number, frontier: readonly Uint8Array[], leafHashes: readonly Uint8Array[]): AppendResult {
  const positions = frontierPositions(size);
  if (frontier.length !== positions.length) {
    throw new RangeError(`a tree of size ${size} has ${positions.length} frontier nodes, got ${frontier.length}`);
  }
  assertSize(size + leafHashes.length, "new size");
  const stack: StoredNode[] = positions.map((p, i) => ({ ...p, hash: frontier[i]! }));
  for (const node of stack) if (node.hash.length !== HASH_SIZE) throw new RangeError("frontier hashes must be 32 bytes");

  const newNodes: StoredNode[] = [];
  let next = size;
  for (const hash of leafHashes) {
    if (!(hash instanceof Uint8Array) || hash.length !== HASH_SIZE) throw new RangeError("leaf hashes must be 32 bytes");
    let node: StoredNode = { level: 0, index: next++, hash };
    newNodes.push(node);
    // Two equal-level subtrees on top are siblings: the left index is even, the parent is index/2.
    while (stack.length > 0 && stack[stack.length - 1]!.level === node.level) {
      const left = stack.pop()!;
      node = { level: left.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      newNodes.push(node);
    }
    stack.push(node);
  }
  const newFrontier = stack.map((n) => n.hash);
  return { newNodes, frontier: newFrontier, root: rootFromFrontier(newFrontier), size: next };
}
