import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import { MIN_LEVEL } from "../merkle/cached-levels";
import { NODE_CACHE_CAPACITY, nodeCacheEntries, readNodesCached } from "./node-cache";

/** A stand-in hash for a node, different for every position. */
const hashOf = (p: NodePosition) => new Uint8Array(createHash("sha256").update(nodeKey(p.level, p.index)).digest());

/** A store that answers every position and counts what it was asked. */
function store() {
  const asked: NodePosition[] = [];
  const read = async (positions: readonly NodePosition[]) => {
    for (const p of positions) asked.push(p);
    return new Map(positions.map((p) => [nodeKey(p.level, p.index), hashOf(p)]));
  };
  return { asked, read };
}

const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString("hex");

describe("tree-node cache", () => {
  it("answers a node at or above MIN_LEVEL from memory once read, and reads lower ones every time", async () => {
    const high = { level: MIN_LEVEL, index: 3 };
    const higher = { level: MIN_LEVEL + 4, index: 1 };
    const low = { level: MIN_LEVEL - 1, index: 3 };
    const s = store();
    const first = await readNodesCached([high, higher, low], s.read);
    const second = await readNodesCached([high, higher, low], s.read);
    expect(s.asked).toEqual([high, higher, low, low]);
    for (const p of [high, higher, low]) {
      expect(hex(first.get(nodeKey(p.level, p.index)))).toBe(hex(hashOf(p)));
      expect(hex(second.get(nodeKey(p.level, p.index)))).toBe(hex(hashOf(p)));
    }
  });

  it("keeps a copy: changing the array the store answered changes nothing kept", async () => {
    const p = { level: MIN_LEVEL + 1, index: 77 };
    const answered = hashOf(p);
    await readNodesCached([p], async () => new Map([[nodeKey(p.level, p.index), answered]]));
    answered.fill(0);
    const s = store();
    const again = await readNodesCached([p], s.read);
    expect(s.asked).toEqual([]);
    expect(hex(again.get(nodeKey(p.level, p.index)))).toBe(hex(hashOf(p)));
  });

  it("takes what the caller already holds before the cache or the store", async () => {
    const p = { level: MIN_LEVEL + 2, index: 5 };
    const held = new Uint8Array(32).fill(7);
    const s = store();
    const got = await readNodesCached([p], s.read, new Map([[nodeKey(p.level, p.index), held]]));
    expect(s.asked).toEqual([]);
    expect(got.get(nodeKey(p.level, p.index))).toBe(held);
  });

  it("does not keep a node whose position is past what it can number, nor an answer that is not a hash", async () => {
    const far = { level: MIN_LEVEL, index: 2 ** 48 };
    const odd = { level: MIN_LEVEL, index: 900 };
    const read = async (positions: readonly NodePosition[]) =>
      new Map(positions.map((p) => [nodeKey(p.level, p.index), p === odd ? new Uint8Array(31) : hashOf(p)]));
    const asked: NodePosition[] = [];
    const counting = (positions: readonly NodePosition[]) => {
      asked.push(...positions);
      return read(positions);
    };
    await readNodesCached([far, odd], counting);
    await readNodesCached([far, odd], counting);
    expect(asked).toEqual([far, odd, far, odd]);
  });

  it("keeps a node once when two requests read it at the same time", async () => {
    const p = { level: MIN_LEVEL + 2, index: 4242 };
    const s = store();
    const before = nodeCacheEntries();
    await Promise.all([readNodesCached([p], s.read), readNodesCached([p], s.read)]);
    expect(s.asked).toEqual([p, p]);
    expect(nodeCacheEntries()).toBe(before + 1);
    const q = { level: MIN_LEVEL + 2, index: 4243 };
    await readNodesCached([q], s.read);
    const again = await readNodesCached([p, q], s.read);
    expect(s.asked).toEqual([p, p, q]);
    expect(hex(again.get(nodeKey(p.level, p.index)))).toBe(hex(hashOf(p)));
    expect(hex(again.get(nodeKey(q.level, q.index)))).toBe(hex(hashOf(q)));
  });

  it("starts over when full, and a hash handed out before keeps its bytes while new nodes fill the cache", async () => {
    const s = store();
    const early = { level: MIN_LEVEL + 3, index: 1 };
    await readNodesCached([early], s.read);
    const held = (await readNodesCached([early], s.read)).get(nodeKey(early.level, early.index))!; // from the cache
    expect(s.asked).toEqual([early]);
    const before = nodeCacheEntries();
    const fill = Array.from({ length: NODE_CACHE_CAPACITY - before }, (_, i) => ({ level: MIN_LEVEL, index: 1_000_000 + i }));
    await readNodesCached(fill, s.read);
    expect(nodeCacheEntries()).toBe(NODE_CACHE_CAPACITY);
    const next = Array.from({ length: 1000 }, (_, i) => ({ level: MIN_LEVEL + 1, index: 5_000_000 + i }));
    await readNodesCached(next, s.read);
    expect(nodeCacheEntries()).toBe(1000); // a new slab, its first 1,000 slots written
    expect(hex(held)).toBe(hex(hashOf(early)));
    s.asked.length = 0;
    const got = await readNodesCached([early, next[999]!], s.read);
    expect(s.asked).toEqual([early]); // forgotten with the old slab; the new one still answers
    expect(hex(got.get(nodeKey(next[999]!.level, next[999]!.index)))).toBe(hex(hashOf(next[999]!)));
  });
});
