import type { ApiKey, Attestation, Checkpoint, IdempotencyRecord, Issuer, Protection, SigningKey } from "../generated/sqlite/client";
import type { NodePosition, StoredNode } from "../merkle/merkle-tree";

export type { ApiKey, Attestation, Checkpoint, IdempotencyRecord, Issuer, Protection, SigningKey };
export type NodeHashes = Map<string, Uint8Array>;
/** What a proof bundle is made of, read together so the checkpoint covers the attestation. */
export interface BundleRows {
  attestation: Attestation;
  issuer: Issuer;
  /** Without its private key: a read path has no use for it. */
  signingKey: PublicSigningKey;
  /** The newest checkpoint, read no earlier than the attestation (so it includes its leaf). */
  checkpoint: Checkpoint;
  /**
   * Stored nodes read along with the rows, keyed by nodeKey: on SQLite the leaf's siblings
   * below the node cache's levels, which the proof would otherwise read separately. Possibly
   * partial or empty; the proof reads whatever it lacks.
   */
  lowerNodes: NodeHashes;
}

export type PublicSigningKey = Omit<SigningKey, "privateKeyEnc">;

export type AttestationInsert = Omit<Attestation, "status"> & { status: "VALID" };

/**
 * The statements on the hot paths (every authenticated request, every append, every proof
 * bundle). Rows have exactly the shape Prisma returns, so callers cannot tell which
 * implementation serves them. Reads never see uncommitted data.
 */
export interface HotReads {
  apiKeyByHash(hash: string): Promise<ApiKey | null>;
  attestation(id: string, tenantId: string): Promise<Attestation | null>;
  issuer(id: string): Promise<Issuer | null>;
  signingKey(kid: string): Promise<SigningKey | null>;
  latestCheckpoint(): Promise<Checkpoint | null>;
  /** The tenant's attestation with its issuer, its key and the newest checkpoint; null when not found. */
  bundleRows(id: string, tenantId: string): Promise<BundleRows | null>;
  nodes(positions: readonly NodePosition[]): Promise<NodeHashes>;
}

export type ProtectionInsert = Omit<Protection, "verificationCount">;

/**
 * A fingerprint of a protection's file; `windows` are its 16 multi-index windows and `hashBytes`
 * its hash's 32 bytes (stored beside each window in its index), both null where it is never matched.
 */
export interface FingerprintInsert {
  protectionId: string;
  alg: string;
  hash: string;
  quality: number;
  createdAt: Date;
  windows: number[] | null;
  hashBytes: Buffer<ArrayBuffer> | null;
}

/**
 * The statements a log entry's own rows use (EntryEffects in server/log/log-append.ts), inside the
 * append's transaction: what a mint reads and writes with its attestation.
 */
export interface EntryWriter {
  idempotencyRecord(tenantId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Optional: reads these keys' records at once, so that idempotencyRecord answers them without
   * another statement (where a statement is a round trip, on PostgreSQL).
   */
  preloadIdempotencyRecords?(keys: { tenantId: string; key: string }[]): Promise<void>;
  /** Inserts the record, or replaces the one with the same (tenant, key). */
  putIdempotencyRecord(row: IdempotencyRecord): Promise<void>;
  /**
   * Reads the usage counters of a whole batch ahead of its admits, so each takeUsageUnit after it
   * decides without another statement (where a statement is a round trip, to the SQLite writer thread).
   */
  preloadUsage?(keys: { userId: string; month: string }[]): Promise<void>;
  /** Counts one mint for the user's month unless that makes more than `limit` (null: no limit); false when refused. */
  takeUsageUnit(userId: string, month: string, limit: number | null): Promise<boolean>;
  insertProtection(row: ProtectionInsert): Promise<void>;
  /** After the protection they belong to. */
  insertFingerprints(rows: FingerprintInsert[]): Promise<void>;
}

/** The writes of one append, all inside one transaction opened by Store.append. */
export interface LogWriter {
  entries: EntryWriter;
  /** Locks the log row (first statement of the transaction) and returns its tree size. */
  lockHead(): Promise<number>;
  nodes(positions: readonly NodePosition[]): Promise<NodeHashes>;
  insertAttestations(rows: AttestationInsert[]): Promise<void>;
  insertNodes(nodes: StoredNode[]): Promise<void>;
  insertCheckpoint(cp: Checkpoint): Promise<void>;
  setHead(treeSize: number, rootHash: Uint8Array): Promise<void>;
}

export interface Store {
  reads: HotReads;
  /** Runs fn with a LogWriter in one durable transaction. */
  append<T>(fn: (w: LogWriter) => Promise<T>): Promise<T>;
  /** Stops what the store started (SQLite's read worker); the database itself is closed by its owner. */
  close(): Promise<void>;
}
