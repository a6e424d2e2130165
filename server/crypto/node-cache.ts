import "server-only";
import { nodeKey, type NodePosition } from "./merkle-tree";

/**
 * Stored nodes are immutable (a perfect subtree's hash never changes), so the upper levels of
 * the tree can be kept in memory with no invalidation at all. Only levels >= MIN_LEVEL are
 * kept: there are n / 2^MIN_LEVEL of them, and every proof needs about half its nodes from
 * there. Bounded: when full, the cache starts over.
 */
const MIN_LEVEL = 8;
const CAPACITY = 200_000;
const cache = new Map<string, Uint8Array>();

type Read = (positions: readonly NodePosition[]) => Promise<Map<string, Uint8Array>>;

export async function readNodesCached(positions: readonly NodePosition[], read: Read): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  const missing: NodePosition[] = [];
  for (const p of positions) {
    const key = nodeKey(p.level, p.index);
    const hit = p.level >= MIN_LEVEL ? cache.get(key) : undefined;
    if (hit) found.set(key, hit);
    else missing.push(p);
  }
  if (missing.length === 0) return found;
  const fetched = await read(missing);
  for (const p of missing) {
    const key = nodeKey(p.level, p.index);
    const hash = fetched.get(key);
    if (!hash) continue;
    found.set(key, hash);
    if (p.level >= MIN_LEVEL) {
      if (cache.size >= CAPACITY) cache.clear();
      cache.set(key, hash);
    }
  }
  return found;
}
