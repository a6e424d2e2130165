// The right edge of a Merkle tree (RFC 9162): the perfect subtrees that make up [0, size),
// largest first. Enough to append leaves and compute the root, so a monitor can follow a log
// entry by entry and keep only O(log n) hashes between runs.
import { emptyRootHash, nodeHash } from "./merkle";

export interface Subtree {
  level: number;
  hash: Uint8Array;
}

export class CompactRange {
  constructor(
    public size = 0,
    public readonly subtrees: Subtree[] = [],
  ) {}

  append(leafHash: Uint8Array): void {
    this.subtrees.push({ level: 0, hash: leafHash });
    this.size += 1;
    for (let n = this.subtrees.length; n >= 2 && this.subtrees[n - 1]!.level === this.subtrees[n - 2]!.level; n--) {
      const right = this.subtrees.pop()!;
      const left = this.subtrees.pop()!;
      this.subtrees.push({ level: left.level + 1, hash: nodeHash(left.hash, right.hash) });
    }
  }

  root(): Uint8Array {
    if (this.subtrees.length === 0) return emptyRootHash();
    let r = this.subtrees[this.subtrees.length - 1]!.hash;
    for (let i = this.subtrees.length - 2; i >= 0; i--) r = nodeHash(this.subtrees[i]!.hash, r);
    return r;
  }
}
