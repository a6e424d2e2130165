import "server-only";
import type pg from "pg";
import { nodeKey, type NodePosition, type StoredNode } from "../merkle/merkle-tree";
import { pairKey } from "./pair-key";
import { Pending, WRITE_SQL } from "./pg-batch-write";
import { addNodes, IDEMPOTENCY_COLS, list, one, readNodes, type Row, type Runner, run, types } from "./pg-statements";
import { idempotencyRow } from "./raw-rows";
import type { AttestationInsert, Checkpoint, EntryWriter, IdempotencyRecord, LogWriter, NodeHashes } from "./types";

/** How long an append may wait for the log's lock, run one statement, and sit idle in its transaction. */
export interface AppendTimeouts {
  lockMs: number;
  statementMs: number;
  idleMs: number;
}

/**
 * Step 1 of an append (pg-store.ts), simple protocol, no parameters: the lock is an UPDATE of the log row, and the same
 * statement returns the frontier of the tree it locked: node (k, (size >> k) - 1) for every bit
 * k set in the size (frontierPositions in merkle-tree.ts).
 */
const BEGIN_SQL = (t: AppendTimeouts) => `BEGIN;
SET LOCAL lock_timeout = ${t.lockMs}; SET LOCAL statement_timeout = ${t.statementMs}; SET LOCAL idle_in_transaction_session_timeout = ${t.idleMs};
WITH l AS (UPDATE log SET updated_at = now() AT TIME ZONE 'UTC' WHERE id = 1 RETURNING tree_size)
SELECT l.tree_size, n.level, n."index", n.hash FROM l LEFT JOIN LATERAL (
  SELECT nd.level, nd."index", nd.hash FROM generate_series(0, 62) AS k
  JOIN log_nodes nd ON nd.level = k AND nd."index" = (l.tree_size >> k) - 1
  WHERE ((l.tree_size >> k) & 1) = 1) n ON true`;

// One statement: a new month's row starts at one; an existing row grows only below the limit.
const USAGE_SQL = `INSERT INTO usage_counters (user_id, month, "count") VALUES ($1, $2, 1)
  ON CONFLICT (user_id, month) DO UPDATE SET "count" = usage_counters."count" + 1
  WHERE $3::int IS NULL OR usage_counters."count" < $3::int
  RETURNING "count"`;

/**
 * The writer of one append transaction on `client`. Reads run at once; writes gather in
 * Pending and go in one statement at flush (before any later read, so reads see them, and
 * before COMMIT). A failed statement leaves a PostgreSQL transaction aborted, so the first
 * failure is kept and the append fails with it even if an effect caught it. The writer is
 * closed once its transaction ends: a late write throws instead of being lost.
 */
export class PgWriter implements LogWriter {
  private pending = new Pending();
  private frontier: NodeHashes = new Map();
  failure: unknown = null;
  closed = false;
  readonly entries: EntryWriter;

  /** Records read ahead by preloadIdempotencyRecords (null: read, none), kept current by puts. */
  private knownRecords = new Map<string, IdempotencyRecord | null>();
  /** Usage counters read ahead by preloadUsage, by (user, month), with the units this transaction took. */
  private knownCounts = new Map<string, number>();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly timeouts: AppendTimeouts,
  ) {
    this.entries = {
      preloadIdempotencyRecords: async (keys) => {
        await this.flush();
        const rows = await run(
          this.db,
          "hm_idempotency_many",
          `SELECT ${list("r", IDEMPOTENCY_COLS)} FROM idempotency_records r
            JOIN unnest($1::text[], $2::text[]) AS k(tenant_id, key) ON r.tenant_id = k.tenant_id AND r.key = k.key`,
          [keys.map((k) => k.tenantId), keys.map((k) => k.key)],
        );
        for (const k of keys) this.knownRecords.set(pairKey(k.tenantId, k.key), null);
        for (const r of rows) this.knownRecords.set(pairKey(r.tenant_id as string, r.key as string), idempotencyRow(r));
      },
      idempotencyRecord: async (tenantId, key) => {
        const known = this.knownRecords.get(pairKey(tenantId, key));
        if (known !== undefined) return known;
        await this.flush();
        return one(
          this.db,
          "hm_idempotency",
          `SELECT ${list("r", IDEMPOTENCY_COLS)} FROM idempotency_records r WHERE r.tenant_id = $1 AND r.key = $2`,
          [tenantId, key],
          idempotencyRow,
        );
      },
      putIdempotencyRecord: async (r) => {
        this.open().records.set(pairKey(r.tenantId, r.key), r);
        this.knownRecords.set(pairKey(r.tenantId, r.key), r);
      },
      preloadUsage: async (keys) => {
        await this.flush();
        const rows = await run(
          this.db,
          "hm_usage_many",
          `SELECT c.user_id, c.month, c."count" FROM usage_counters c
            JOIN unnest($1::text[], $2::text[]) AS k(user_id, month) ON c.user_id = k.user_id AND c.month = k.month`,
          [keys.map((k) => k.userId), keys.map((k) => k.month)],
        );
        for (const k of keys) this.knownCounts.set(pairKey(k.userId, k.month), 0);
        for (const r of rows) this.knownCounts.set(pairKey(r.user_id as string, r.month as string), Number(r.count));
      },
      takeUsageUnit: async (userId, month, limit) => {
        if (limit !== null && limit < 1) return false;
        const key = pairKey(userId, month);
        const known = this.knownCounts.get(key);
        if (known === undefined) {
          await this.flush();
          return (await run(this.db, "hm_usage", USAGE_SQL, [userId, month, limit])).length === 1;
        }
        // Exact: the counter was read under the log's lock, which every writer that raises a counter
        // holds (deleting an account removes its counters without it, which can only lower them).
        if (limit !== null && known >= limit) return false;
        this.knownCounts.set(key, known + 1);
        const pending = this.open().usage;
        const taken = pending.get(key);
        if (taken) taken.taken++;
        else pending.set(key, { userId, month, taken: 1 });
        return true;
      },
      insertProtection: async (p) => void this.open().protections.push(p),
      insertFingerprints: async (rows) => void this.open().fingerprints.push(...rows),
    };
  }

  /** The client, with every failure remembered. */
  private readonly db: Runner = {
    query: async (config) => {
      this.open();
      try {
        return await this.client.query(config);
      } catch (err) {
        this.failure ??= err;
        throw err;
      }
    },
  };

  private open(): Pending {
    if (this.closed) throw new Error("the append's transaction has ended");
    return this.pending;
  }

  /** Steps 1: begins, locks the log, and keeps the frontier of the tree it locked. */
  async lockHead(): Promise<number> {
    const results = (await this.db.query({ text: BEGIN_SQL(this.timeouts), types } as pg.QueryConfig)) as unknown as pg.QueryResult[];
    const rows = results[results.length - 1]!.rows as Row[];
    if (!rows[0]) throw new Error("the log row is missing");
    addNodes(this.frontier, rows);
    return Number(rows[0].tree_size);
  }

  async nodes(positions: readonly NodePosition[]): Promise<NodeHashes> {
    if (positions.every((p) => this.frontier.has(nodeKey(p.level, p.index)))) {
      return new Map(positions.map((p) => [nodeKey(p.level, p.index), this.frontier.get(nodeKey(p.level, p.index))!]));
    }
    await this.flush();
    return readNodes(this.db, positions);
  }

  async insertAttestations(rows: AttestationInsert[]): Promise<void> {
    this.open().attestations.push(...rows);
  }
  async insertNodes(nodes: StoredNode[]): Promise<void> {
    this.open().nodes.push(...nodes);
  }
  async insertCheckpoint(cp: Checkpoint): Promise<void> {
    this.open().checkpoints.push(cp);
  }
  async setHead(size: number, root: Uint8Array): Promise<void> {
    this.open().head = { size, root };
  }

  /** Step 3: writes what is pending, in one statement. */
  async flush(): Promise<void> {
    const pending = this.open();
    if (pending.empty) return;
    this.pending = new Pending();
    await run(this.db, "hm_write", WRITE_SQL, pending.values());
  }
}
