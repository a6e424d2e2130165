import "server-only";
import { LRUCache } from "lru-cache";
import { encodeEntryBundle, leavesPerTileHash, TILE_HEIGHT, TILE_WIDTH, tileExists, type TileAddress } from "@/lib/verify/tiles";
import { loggedLeafDataOf } from "../crypto/sealed-leaf";
import { canonicalFieldsOf } from "../crypto/attestation-bytes.mjs";
import { getDb } from "../db";
import { getStore } from "../store";
import { processWide } from "../process-wide";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import { positionOf, storedNode } from "../merkle/positions";

/**
 * C2SP tlog-tiles over the stored tree. A tile's hashes are stored nodes: the hash i of tile
 * (L, N) is the node at level 8·L, index N·256 + i, which never changes once written. So every
 * tile, full or partial, is immutable, and a built one is kept (bounded by bytes) and never
 * rebuilt while it stays in memory. Each shard (server/merkle/positions.ts) has its own tiles, over its own tree.
 */
const built = processWide(
  "tile-cache",
  () => new LRUCache<string, Uint8Array>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => Math.max(1, b.length) }),
);

const key = (shard: number, t: TileAddress) => `${shard}:${t.level}/${t.index}/${t.width}`;

/** The built-tile cache's fill, for /metrics. */
export const tileCacheUse = () => ({ entries: built.size, bytes: built.calculatedSize });

/** Shard `shard`'s tile, or null when its tree of `treeSize` (its own size) does not have it. */
export async function readTile(shard: number, t: TileAddress, treeSize: number): Promise<Uint8Array | null> {
  if (!tileExists(t, treeSize)) return null;
  const hit = built.get(key(shard, t));
  if (hit) return hit;
  const bytes = t.level === "entries" ? await buildEntryBundle(shard, t) : await buildHashTile(shard, t.level, t);
  built.set(key(shard, t), bytes);
  return bytes;
}

async function buildHashTile(shard: number, level: number, t: TileAddress): Promise<Uint8Array> {
  const nodeLevel = level * TILE_HEIGHT;
  const first = t.index * TILE_WIDTH;
  const positions: NodePosition[] = [];
  for (let i = 0; i < t.width; i++) positions.push(storedNode(shard, { level: nodeLevel, index: first + i }));
  const nodes = await getStore().reads.nodes(positions);
  const out = new Uint8Array(t.width * 32);
  positions.forEach((p, i) => {
    const hash = nodes.get(nodeKey(p.level, p.index));
    // tileExists said the tree covers every one of these subtrees, so each node is stored.
    if (!hash) throw new Error(`log node (${p.level}, ${p.index}) is missing`);
    out.set(hash, i * 32);
  });
  return out;
}

async function buildEntryBundle(shard: number, t: TileAddress): Promise<Uint8Array> {
  const first = positionOf(shard, t.index * TILE_WIDTH * leavesPerTileHash(0));
  const rows = await getDb().read.attestation.findMany({
    where: { logIndex: { gte: BigInt(first), lt: BigInt(first + t.width) } },
    orderBy: { logIndex: "asc" },
    select: { id: true, issuerId: true, kid: true, payload: true, signature: true, createdAt: true, logIndex: true, seal: true },
  });
  if (rows.length !== t.width) throw new Error(`log entries ${first}…${first + t.width - 1} are incomplete`);
  return encodeEntryBundle(rows.map((r) => loggedLeafDataOf(canonicalFieldsOf(r), r.signature, r.seal)));
}
