// Tree positions in the database. A key rotation starts a new log (a shard: new origin, new
// key, a tree of its own from size 0), and every shard's rows share the log's tables. Each shard
// has its own aligned block of one address space: shard k's entry i is at position
// k * SHARD_SPAN + i, so its perfect subtrees are the address space's subtrees at the same
// level, node (L, j) of the shard at (L, j + k * SHARD_SPAN / 2^L). Tree sizes are stored the
// same way (shard k's size n at k * SHARD_SPAN + n), so a checkpoint, a cosignature, a witness's
// cosigned size and the published size each name their shard as well as their size, and
// positions of a newer shard are larger. Shard 0's positions are its own indexes and sizes.
//
// What leaves the server (a log_index, a tree_size, a tile's address) is local to the shard that
// the accompanying checkpoint's origin names.
import type { NodePosition } from "./merkle-tree";

export const SHARD_BITS = 40;
/** Entries one shard may hold, and the distance between two shards' positions. */
export const SHARD_SPAN = 2 ** SHARD_BITS;

/** The shard a stored position (an entry's index or a tree size) belongs to. */
export const shardOf = (position: number | bigint): number => Math.floor(Number(position) / SHARD_SPAN);

/** A stored position as the shard's own index or size. */
export const localOf = (position: number | bigint): number => Number(position) % SHARD_SPAN;

/** The stored position of `shard`'s index or size `local`. */
export const positionOf = (shard: number, local: number): number => shard * SHARD_SPAN + local;

/** A shard's node as stored (the address space's node at the same level). */
export function storedNode(shard: number, p: NodePosition): NodePosition {
  if (shard === 0) return p;
  if (p.level > SHARD_BITS) throw new Error(`no node of a shard is above level ${SHARD_BITS}`);
  return { level: p.level, index: p.index + shard * 2 ** (SHARD_BITS - p.level) };
}

/** A stored node as its shard's own. */
export function shardNode(p: NodePosition): NodePosition {
  const shard = Math.floor(p.index / 2 ** (SHARD_BITS - p.level));
  return shard === 0 ? p : { level: p.level, index: p.index - shard * 2 ** (SHARD_BITS - p.level) };
}
