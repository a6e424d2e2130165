// RFC 9162 (Certificate Transparency v2.0) Merkle tree hashing and proof verification.
// Single source of truth for the hashing primitives: the server's tree storage imports these.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesEqual, concatBytes } from "./encoding";

export const HASH_SIZE = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

/** Thrown by rootFromInclusionProof on a proof that cannot be evaluated. */
export class MerkleProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MerkleProofError";
  }
}

export function sha256Bytes(data: Uint8Array): Uint8Array {
  return sha256(data);
}

/** MTH({}) = SHA-256() : the root hash of the empty tree. */
export function emptyRootHash(): Uint8Array {
  return sha256(new Uint8Array(0));
}

/** Leaf hash: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(concatBytes(LEAF_PREFIX, data));
}

/** Interior node hash: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(NODE_PREFIX, left, right));
}

function isSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function isHash(h: unknown): h is Uint8Array {
  return h instanceof Uint8Array && h.length === HASH_SIZE;
}

// Shifts are done with arithmetic, not >>, because sizes may exceed 2^32.
const half = (n: number): number => Math.floor(n / 2);
const isOdd = (n: number): boolean => n % 2 === 1;

/**
 * RFC 9162 §2.1.3.2: the root hash implied by an inclusion proof for the leaf at `index` in a
 * tree of `size` leaves. Throws MerkleProofError if the proof has the wrong shape.
 */
export function rootFromInclusionProof(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]): Uint8Array {
  if (!isSize(index) || !isSize(size)) throw new MerkleProofError("index and size must be safe non-negative integers");
  if (index >= size) throw new MerkleProofError(`index ${index} is outside a tree of size ${size}`);
  if (!isHash(leaf)) throw new MerkleProofError("leaf hash must be 32 bytes");
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (!isHash(p)) throw new MerkleProofError("proof hashes must be 32 bytes");
    if (sn === 0) throw new MerkleProofError("proof is too long");
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new MerkleProofError("proof is too short");
  return r;
}

/** RFC 9162 §2.1.3.2: true iff `proof` proves `leaf` is at `index` in the tree (`size`, `root`). */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!isHash(root)) return false;
  try {
    return bytesEqual(rootFromInclusionProof(index, size, leaf, proof), root);
  } catch (e) {
    if (e instanceof MerkleProofError) return false;
    throw e;
  }
}

/**
 * RFC 9162 §2.1.4.2: true iff `proof` shows the tree (`size1`, `root1`) is a prefix of the tree
 * (`size2`, `root2`). Trivial cases: equal sizes need an empty proof and equal roots; an empty
 * first tree needs an empty proof and root1 = MTH({}).
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): boolean {
  if (!isSize(size1) || !isSize(size2) || size1 > size2) return false;
  if (!isHash(root1) || !isHash(root2) || !proof.every(isHash)) return false;
  if (size1 === size2) return proof.length === 0 && bytesEqual(root1, root2);
  if (size1 === 0) return proof.length === 0 && bytesEqual(root1, emptyRootHash());
  if (proof.length === 0) return false;

  // Step 2: if size1 is an exact power of two, the proof starts implicitly with root1.
  const path = isPow2(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(fr, root1) && bytesEqual(sr, root2);
}

/** True iff n is a positive power of two (exact for all safe integers). */
export function isPow2(n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}
