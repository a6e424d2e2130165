import "server-only";
import { dbBytes, type Tx } from "../db";
import { appendLeaves, frontierPositions } from "./merkle-tree";
import { signCheckpoint, type LogIdentity } from "./log-identity";
import { nodeAt, readNodes } from "./log-nodes";

/** An attestation ready to be logged: signed, not yet visible. */
export interface LogEntry {
  row: {
    id: string;
    tenantId: string;
    issuerId: string;
    kid: string;
    /** RFC 8785 canonical JSON of the signed payload. */
    payload: string;
    signature: string;
    createdAt: Date;
  };
  /** RFC 9162 leaf hash of the attestation's leaf data (lib/verify leafData). */
  leafHash: Uint8Array;
}

/**
 * Appends a batch in the caller's transaction: lock the log row, extend the tree from its
 * stored frontier, write the attestations, their leaves and new nodes, and one signed
 * checkpoint. Nothing of it is visible until the transaction commits, and then all of it is.
 * Returns the log index of the first entry.
 */
export async function appendBatch(tx: Tx, id: LogIdentity, entries: LogEntry[]): Promise<number> {
  // The first statement takes the lock: a row lock on PostgreSQL, the write lock on SQLite.
  const head = await tx.log.update({ where: { id: 1 }, data: { updatedAt: new Date() } });
  const size = Number(head.treeSize);
  const positions = frontierPositions(size);
  const stored = await readNodes(tx, positions);
  const frontier = positions.map((p) => nodeAt(stored, p));
  const grown = appendLeaves(size, frontier, entries.map((e) => e.leafHash));
  await tx.attestation.createMany({
    data: entries.map((e, i) => ({ ...e.row, status: "VALID", logIndex: BigInt(size + i) })),
  });
  await tx.logNode.createMany({
    data: grown.newNodes.map((n) => ({ level: n.level, index: BigInt(n.index), hash: dbBytes(n.hash) })),
  });
  const cp = signCheckpoint(id, grown.size, grown.root);
  await tx.checkpoint.create({ data: { ...cp, treeSize: BigInt(cp.treeSize), rootHash: dbBytes(cp.rootHash) } });
  await tx.log.update({ where: { id: 1 }, data: { treeSize: BigInt(grown.size), rootHash: dbBytes(grown.root) } });
  return size;
}
