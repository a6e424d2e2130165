import "server-only";
import type { Client, Tx } from "../db";
import { nodeKey, type NodePosition } from "./merkle-tree";

/** Reads the given perfect-subtree nodes in one query, keyed by nodeKey(level, index). */
export async function readNodes(db: Client | Tx, positions: readonly NodePosition[]): Promise<Map<string, Uint8Array>> {
  const map = new Map<string, Uint8Array>();
  if (positions.length === 0) return map;
  const rows = await db.logNode.findMany({
    where: { OR: positions.map((p) => ({ level: p.level, index: BigInt(p.index) })) },
  });
  for (const r of rows) map.set(nodeKey(r.level, Number(r.index)), new Uint8Array(r.hash));
  return map;
}

/** The stored hash at a position; a missing node means a corrupt store, never a caller's mistake. */
export function nodeAt(map: ReadonlyMap<string, Uint8Array>, p: NodePosition): Uint8Array {
  const hash = map.get(nodeKey(p.level, p.index));
  if (!hash) throw new Error(`log node ${p.level}:${p.index} is missing`);
  return hash;
}
