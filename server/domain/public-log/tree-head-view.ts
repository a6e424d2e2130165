// A checkpoint as the API shows it (a signed tree head): what the log's answers (log-views.ts) and a
// proof bundle (proof-bundles.ts) both carry.
import { toHex } from "../../crypto/hash";
import { localOf } from "../../merkle/positions";
import { iso } from "../ids";

export interface SignedTreeHeadView {
  tree_size: number;
  root_hash: string;
  signature: string;
  origin: string;
  timestamp: string;
  checkpoint: string;
}

/** A checkpoint as the store reads it. */
export type CheckpointRow = { treeSize: bigint; rootHash: Uint8Array; note: string; signature: string; timestamp: Date };

/**
 * A checkpoint row as JSON: its size is its shard's own (server/merkle/positions.ts), `origin`
 * its shard's. `timestamp` is published to the second, as a sealed leaf's time is: a batch of
 * one private mint gets a checkpoint of its own, and its millisecond would date the sealed entry
 * more finely than its leaf does.
 */
export function toTreeHeadView(origin: string, row: CheckpointRow): SignedTreeHeadView {
  return {
    tree_size: localOf(row.treeSize),
    root_hash: toHex(row.rootHash),
    signature: row.signature,
    origin,
    timestamp: iso(new Date(Math.floor(row.timestamp.getTime() / 1000) * 1000)),
    checkpoint: row.note,
  };
}
