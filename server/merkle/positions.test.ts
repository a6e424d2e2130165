// Stored positions: each shard's tree is the address space's aligned subtree, so its nodes are
// the address space's nodes and no two shards share one.
import { describe, expect, it } from "vitest";
import { appendLeaves } from "./merkle-tree";
import { localOf, positionOf, SHARD_BITS, SHARD_SPAN, shardNode, shardOf, storedNode } from "./positions";

describe("positions", () => {
  it("name a shard and its own index, shard 0's being its indexes", () => {
    expect(positionOf(0, 41)).toBe(41);
    expect([shardOf(41), localOf(41)]).toEqual([0, 41]);
    const p = positionOf(3, 12_345);
    expect([shardOf(p), localOf(p), shardOf(BigInt(p)), localOf(BigInt(p))]).toEqual([3, 12_345, 3, 12_345]);
    expect(shardOf(positionOf(1, 0))).toBe(1);
    expect(shardOf(positionOf(1, 0) - 1)).toBe(0);
    expect(Number.isSafeInteger(positionOf(8191, SHARD_SPAN - 1))).toBe(true);
  });

  it("store a shard's nodes as the nodes of the address space's tree over the same leaves", () => {
    // A node (L, j) covers leaves [j·2^L, (j+1)·2^L): stored, it covers the same leaves at their positions.
    for (const shard of [0, 1, 5]) {
      const grown = appendLeaves(
        0,
        [],
        Array.from({ length: 37 }, (_, i) => new Uint8Array(32).fill(i)),
      );
      for (const n of grown.newNodes) {
        const at = storedNode(shard, { level: n.level, index: n.index });
        expect(at.level).toBe(n.level);
        expect(at.index * 2 ** n.level).toBe(positionOf(shard, n.index * 2 ** n.level));
        expect(shardNode(at)).toEqual({ level: n.level, index: n.index });
      }
    }
  });

  it("keep the shards' nodes apart at every level", () => {
    const seen = new Set<string>();
    for (const shard of [0, 1, 2])
      for (const level of [0, 7, 20, SHARD_BITS - 1, SHARD_BITS])
        for (const index of new Set([0, 1, 2 ** (SHARD_BITS - level) - 1].filter((i) => i < 2 ** (SHARD_BITS - level)))) {
          const at = storedNode(shard, { level, index });
          const key = `${at.level}:${at.index}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
    expect(() => storedNode(1, { level: SHARD_BITS + 1, index: 0 })).toThrow();
  });
});
