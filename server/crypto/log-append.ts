import "server-only";
import type { LogWriter } from "../store/types";
import { appendLeaves, frontierPositions, nodeKey } from "./merkle-tree";
import { signCheckpoint, type LogIdentity } from "./log-identity";

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
 * Appends a batch through `w`, inside one transaction: lock the log row, extend the tree from
 * its stored frontier, write the attestations, their leaves and new nodes, and one signed
 * checkpoint. Nothing of it is visible until the transaction commits, and then all of it is.
 * Returns the log index of the first entry.
 */
export async function appendBatch(w: LogWriter, id: LogIdentity, entries: LogEntry[]): Promise<number> {
  const size = await w.lockHead();
  const positions = frontierPositions(size);
  const stored = await w.nodes(positions);
  const frontier = positions.map((p) => {
    const hash = stored.get(nodeKey(p.level, p.index));
    if (!hash) throw new Error(`log node ${p.level}:${p.index} is missing`);
    return hash;
  });
  const grown = appendLeaves(size, frontier, entries.map((e) => e.leafHash));
  await w.insertAttestations(entries.map((e, i) => ({ ...e.row, status: "VALID", logIndex: BigInt(size + i) })));
  await w.insertNodes(grown.newNodes);
  const cp = signCheckpoint(id, grown.size, grown.root);
  await w.insertCheckpoint({ ...cp, treeSize: BigInt(cp.treeSize), rootHash: cp.rootHash as Uint8Array<ArrayBuffer> });
  await w.setHead(grown.size, grown.root);
  return size;
}
