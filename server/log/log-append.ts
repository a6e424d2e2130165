import "server-only";
import type { AttestationInsert, EntryWriter, LogWriter } from "../store/types";
import { appendLeaves, frontierPositions, nodeKey } from "../merkle/merkle-tree";
import { reloadLogIdentity, signCheckpoint, type LogIdentity } from "./log-identity";
import { localOf, positionOf, shardOf, storedNode } from "../merkle/positions";

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
    /** The sealed leaf's seal column (server/crypto/sealed-leaf.ts) when the entry is logged sealed. */
    seal?: string | null;
  };
  /** RFC 9162 leaf hash of the leaf data the log holds: the attestation's, or its sealed leaf's. */
  leafHash: Uint8Array;
  /** The rows that belong to this entry: they commit in its transaction, or none of them does. */
  effects?: EntryEffects;
}

/**
 * Entries logged as one: contiguous log indexes, in order, admitted or refused together, with
 * one set of effects for the whole group (a batch request's Idempotency-Key and answer). The
 * entries' own `effects` are not used.
 */
export interface LogGroup {
  entries: LogEntry[];
  effects?: EntryEffects;
}

/** What the sequencer appends: one entry, or a group logged as one. */
export type LogUnit = LogEntry | LogGroup;

const entriesOf = (u: LogUnit): LogEntry[] => ("entries" in u ? u.entries : [u]);

/** How many entries a unit holds. */
export const unitSize = (u: LogUnit): number => ("entries" in u ? u.entries.length : 1);

/** Scratch space shared by the entries of one batch (e.g. an Idempotency-Key already taken in it). */
export type BatchScope = Map<string, unknown>;

/**
 * What an entry writes besides its attestation, leaf and nodes (a mint's protection, quota
 * unit and idempotency answer). Both run inside the append's transaction, with the log locked,
 * so what they read cannot change under them, on any instance.
 */
export interface EntryEffects {
  /**
   * Decides whether the entry may be logged, before it gets a log index, and takes what it needs
   * (a quota unit). Throwing refuses this entry alone (its caller gets what was thrown; the rest
   * of the batch goes on), so it must write nothing before it throws. `logIndex` is the stored
   * position (../merkle/positions.ts) the entry (a group's first entry) gets if admitted.
   */
  admit?(w: EntryWriter, batch: BatchScope, logIndex: number): Promise<void>;
  /** Writes the entry's own rows, after its attestation row. A failure here fails the whole batch. */
  write?(w: EntryWriter): Promise<void>;
  /**
   * The Idempotency-Key admit looks up, if any: the store may read the keys of a whole batch in
   * one statement before the admits run (EntryWriter.preloadIdempotencyRecords).
   */
  idempotencyKey?: { tenantId: string; key: string };
  /** The month's usage counter admit takes a unit of, if any: read ahead with the batch's others (EntryWriter.preloadUsage). */
  usageKey?: { userId: string; month: string };
}

/** Each unit's fate in its batch: the stored position (../merkle/positions.ts) of its (first) entry, or why it was refused. */
export type EntryOutcome = { logIndex: number } | { refused: unknown };

/** The row of an entry at its stored position, as one object literal (a spread of the row makes a slower, larger object per entry). */
const attestationInsert = (r: LogEntry["row"], position: number): AttestationInsert => ({
  id: r.id,
  tenantId: r.tenantId,
  issuerId: r.issuerId,
  kid: r.kid,
  payload: r.payload,
  signature: r.signature,
  status: "VALID",
  logIndex: BigInt(position),
  createdAt: r.createdAt,
  seal: r.seal ?? null,
});

/**
 * The frontier of the tree the last committed append of this process left (its stored position
 * and hashes), so the next append, finding the log's head there, reads no nodes to extend it.
 * Nodes are immutable and the head is read under the log's lock, so a frontier kept for that
 * head is the stored one; any other head (another instance or process appended, a rotation)
 * reads them. `pending` is what this append leaves; the caller promotes it once the
 * transaction has committed, and never otherwise.
 */
export interface FrontierMemo {
  committed: { end: number; hashes: Uint8Array[] } | null;
  pending: { end: number; hashes: Uint8Array[] } | null;
}

/**
 * Appends a batch of units through `w`, inside one transaction: lock the log row, admit each
 * unit (in order; a refused one is left out), extend the tree from its stored frontier, write
 * the admitted attestations, their leaves and new nodes, one signed checkpoint, and each unit's
 * own rows. Nothing of it is visible until the transaction commits, and then all of it is.
 * Returns each unit's outcome, in order.
 */
export async function appendBatch(w: LogWriter, identity: LogIdentity, all: LogUnit[], memo?: FrontierMemo): Promise<EntryOutcome[]> {
  const locking = w.lockHead();
  // Issued right behind the lock, in the same transaction, before its answer: one round trip for both.
  const preloading = preload(w, all);
  preloading.catch(() => {}); // a failure surfaces through the lock's, or when awaited below
  const head = await locking;
  await preloading;
  const shard = shardOf(head);
  const size = localOf(head);
  // A rotation (on any instance) started a new shard since this process read its identity.
  const id = identity.shard === shard ? identity : await reloadLogIdentity();
  if (id.shard !== shard) throw new Error(`the log is in shard ${shard}, its identity in shard ${id.shard}`);
  const outcomes: EntryOutcome[] = new Array(all.length);
  const entries: LogEntry[] = [];
  const admitted: LogUnit[] = [];
  const scope: BatchScope = new Map();
  for (const [i, unit] of all.entries()) {
    try {
      await unit.effects?.admit?.(w.entries, scope, head + entries.length);
    } catch (refused) {
      outcomes[i] = { refused };
      continue;
    }
    outcomes[i] = { logIndex: head + entries.length };
    admitted.push(unit);
    for (const e of entriesOf(unit)) entries.push(e);
  }
  if (entries.length === 0) return outcomes;
  const frontier = memo?.committed?.end === head ? memo.committed.hashes : await storedFrontier(w, shard, size);
  const grown = appendLeaves(
    size,
    frontier,
    entries.map((e) => e.leafHash),
  );
  await w.insertAttestations(entries.map(({ row }, i) => attestationInsert(row, head + i)));
  await w.insertNodes(grown.newNodes.map((n) => ({ ...storedNode(shard, n), hash: n.hash })));
  const cp = signCheckpoint(id, grown.size, grown.root);
  const end = positionOf(shard, grown.size);
  await w.insertCheckpoint({ ...cp, treeSize: BigInt(end), rootHash: cp.rootHash as Uint8Array<ArrayBuffer> });
  await w.setHead(end, grown.root);
  if (memo) memo.pending = { end, hashes: grown.frontier };
  for (const unit of admitted) await unit.effects?.write?.(w.entries);
  return outcomes;
}

/** The frontier of the tree of `size` leaves of `shard`, from the stored nodes. */
async function storedFrontier(w: LogWriter, shard: number, size: number): Promise<Uint8Array[]> {
  const positions = frontierPositions(size).map((p) => storedNode(shard, p));
  const stored = await w.nodes(positions);
  return positions.map((at) => {
    const hash = stored.get(nodeKey(at.level, at.index));
    if (!hash) throw new Error(`log node ${at.level}:${at.index} is missing`);
    return hash;
  });
}

/** Reads ahead what the units' admits look up: their Idempotency-Keys and usage counters. */
async function preload(w: LogWriter, all: LogUnit[]): Promise<void> {
  const keys = all.flatMap((u) => (u.effects?.idempotencyKey ? [u.effects.idempotencyKey] : []));
  const usage = all.flatMap((u) => (u.effects?.usageKey ? [u.effects.usageKey] : []));
  await Promise.all([
    keys.length && w.entries.preloadIdempotencyRecords ? w.entries.preloadIdempotencyRecords(keys) : undefined,
    usage.length && w.entries.preloadUsage ? w.entries.preloadUsage(usage) : undefined,
  ]);
}
