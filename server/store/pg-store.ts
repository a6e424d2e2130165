import "server-only";
import { pairKey } from "./pair-key";
import { NO_PDQ_WINDOWS, PDQ_WINDOW_COLUMNS, PDQ_WINDOWS } from "@/lib/fingerprint/pdq-index";
import { SHARD_BITS } from "../merkle/positions";
import pg from "pg";
import { nodeKey, type NodePosition, type StoredNode } from "../merkle/merkle-tree";
import {
  apiKeyRow,
  attestationRow,
  checkpointRow,
  idempotencyRow,
  issuerRow,
  publicSigningKeyRow,
  SIBLING_LEVELS,
  siblingNodes,
  signingKeyRow,
} from "./raw-rows";
import type {
  AttestationInsert,
  BundleRows,
  Checkpoint,
  EntryWriter,
  IdempotencyRecord,
  LogWriter,
  NodeHashes,
  FingerprintInsert,
  ProtectionInsert,
  Store,
} from "./types";

/**
 * The hot paths on PostgreSQL through node-postgres, on the pool Prisma also uses.
 *
 * Every instance waits on the log's row lock, and it is held for every round trip of an
 * append, so an append makes as few as it can (ARCHITECTURE.md, "Hot paths"):
 *   1. BEGIN, the transaction's timeouts, the lock and the tree's frontier nodes: one
 *      simple-protocol message;
 *   2. what the entries' admit reads (a mint: its Idempotency-Key, its quota unit);
 *   3. every write of the batch (attestations, nodes, checkpoint, head, the entries' own rows):
 *      one statement of data-modifying CTEs, multi-row inserts of unnest()ed arrays;
 *   4. COMMIT.
 * Reads are named prepared statements with their columns spelled out (a `SELECT *` prepared
 * on a connection fails once a migration adds a column). Rows come back in Prisma's shapes
 * (raw-rows.ts).
 */
type Row = Record<string, unknown>;

/** A stuck append is answered 503 (isBusy) instead of holding the log for every instance. */
export const APPEND_TIMEOUTS = { lockMs: 15_000, statementMs: 30_000, idleMs: 30_000 };

// TIMESTAMP(3) columns hold UTC wall time (as Prisma writes them): read as ISO text in UTC, and
// written as ISO text (a timestamp without time zone ignores the zone suffix, so the wall
// time stays UTC whatever this process's time zone). BIGINT is read exactly, as bigint.
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP_OID) return (s: string) => s.replace(" ", "T") + "Z";
    if (oid === INT8_OID) return (s: string) => BigInt(s);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

const iso = (d: Date): string => d.toISOString();

interface Runner {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/** Runs the named statement `name` (prepared once per connection) with `values`. */
async function run(db: Runner, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const res = await db.query({ name, text, values, types } as pg.QueryConfig);
  return res.rows as Row[];
}

const one = async <T>(db: Runner, name: string, text: string, values: unknown[], map: (r: Row) => T): Promise<T | null> => {
  const rows = await run(db, name, text, values);
  return rows[0] ? map(rows[0]) : null;
};

const list = (table: string, names: string[]) => names.map((c) => `${table}."${c}"`).join(", ");
const columns = (names: string[]) => names.map((c) => `"${c}"`).join(", ");
const ATTESTATION_COLS = ["id", "tenant_id", "issuer_id", "kid", "payload", "signature", "status", "log_index", "created_at", "seal"];
const ISSUER_COLS = ["id", "tenant_id", "name", "domain", "status", "trust_level", "personal_for", "created_at", "updated_at"];
const PUBLIC_KEY_COLS = ["kid", "issuer_id", "algorithm", "public_key_pem", "status", "not_before", "expires_at", "created_at"];
const KEY_COLS = [...PUBLIC_KEY_COLS, "private_key_enc"];
const CHECKPOINT_COLS = ["tree_size", "root_hash", "note", "signature", "timestamp"];
const API_KEY_COLS = [
  "id",
  "tenant_id",
  "user_id",
  "name",
  "prefix",
  "secret_hash",
  "scopes",
  "status",
  "daily_quota",
  "rate_limit_per_minute",
  "created_at",
  "revoked_at",
];
const IDEMPOTENCY_COLS = ["tenant_id", "key", "request_hash", "status", "response", "created_at"];

const NODES_SQL = `SELECT n.level, n."index", n.hash FROM log_nodes n
  JOIN unnest($1::int[], $2::bigint[]) AS p(level, idx) ON n.level = p.level AND n."index" = p.idx`;

function addNodes(map: NodeHashes, rows: Row[]): NodeHashes {
  for (const r of rows) if (r.hash !== null) map.set(nodeKey(Number(r.level), Number(r.index)), new Uint8Array(r.hash as Buffer));
  return map;
}

async function readNodes(db: Runner, positions: readonly NodePosition[]): Promise<NodeHashes> {
  if (positions.length === 0) return new Map();
  return addNodes(new Map(), await run(db, "hm_nodes", NODES_SQL, [positions.map((p) => p.level), positions.map((p) => String(p.index))]));
}

/**
 * A proof bundle's rows in one statement (one snapshot: the newest checkpoint of the
 * attestation's shard covers it, server/merkle/positions.ts), with the leaf's siblings below the node cache's levels as sqlite-store.ts reads
 * them (sibling k is node (k, (i >> k) XOR 1); # is PostgreSQL's XOR).
 */
const prefixed = (table: string, names: string[]) => names.map((c) => `${table}."${c}" AS "${table}.${c}"`).join(", ");
const BUNDLE_SQL = `SELECT ${prefixed("a", ATTESTATION_COLS)}, ${prefixed("i", ISSUER_COLS)}, ${prefixed("k", PUBLIC_KEY_COLS)}, ${prefixed("c", CHECKPOINT_COLS)},
    ${SIBLING_LEVELS.map((k) => `(SELECT hash FROM log_nodes WHERE level = ${k} AND "index" = (a.log_index >> ${k}) # 1) AS "sibling${k}"`).join(",\n    ")}
  FROM attestations a
  LEFT JOIN issuers i ON i.id = a.issuer_id
  LEFT JOIN signing_keys k ON k.kid = a.kid
  LEFT JOIN LATERAL (SELECT ${list("checkpoints", CHECKPOINT_COLS)} FROM checkpoints
    WHERE tree_size < ((a.log_index >> ${SHARD_BITS}) + 1) << ${SHARD_BITS} ORDER BY tree_size DESC LIMIT 1) c ON true
  WHERE a.id = $1 AND a.tenant_id = $2`;

function part(r: Row, table: string): Row {
  const out: Row = {};
  const prefix = `${table}.`;
  for (const [k, v] of Object.entries(r)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

function bundleRowsOf(r: Row | undefined, id: string): BundleRows | null {
  if (!r) return null;
  const [a, i, k, c] = ["a", "i", "k", "c"].map((t) => part(r, t)) as [Row, Row, Row, Row];
  if (i.id === null || k.kid === null || c.tree_size === null)
    throw new Error(`attestation ${id} refers to a missing issuer, key or checkpoint`);
  const attestation = attestationRow(a);
  return {
    attestation,
    issuer: issuerRow(i),
    signingKey: publicSigningKeyRow(k),
    checkpoint: checkpointRow(c),
    lowerNodes: siblingNodes(attestation.logIndex, r),
  };
}

/**
 * Step 1 (simple protocol, no parameters): the lock is an UPDATE of the log row, and the same
 * statement returns the frontier of the tree it locked: node (k, (size >> k) - 1) for every bit
 * k set in the size (frontierPositions in merkle-tree.ts).
 */
const BEGIN_SQL = (t: typeof APPEND_TIMEOUTS) => `BEGIN;
SET LOCAL lock_timeout = ${t.lockMs}; SET LOCAL statement_timeout = ${t.statementMs}; SET LOCAL idle_in_transaction_session_timeout = ${t.idleMs};
WITH l AS (UPDATE log SET updated_at = now() AT TIME ZONE 'UTC' WHERE id = 1 RETURNING tree_size)
SELECT l.tree_size, n.level, n."index", n.hash FROM l LEFT JOIN LATERAL (
  SELECT nd.level, nd."index", nd.hash FROM generate_series(0, 62) AS k
  JOIN log_nodes nd ON nd.level = k AND nd."index" = (l.tree_size >> k) - 1
  WHERE ((l.tree_size >> k) & 1) = 1) n ON true`;

/**
 * Step 3: every write of a batch in one statement. Each CTE inserts its unnest()ed arrays
 * (empty arrays insert nothing); the head moves only when a size is given. Foreign keys and
 * unique constraints are checked as for separate statements: any failure fails it all.
 * Fingerprints' windows: $46 holds them flat, PDQ_WINDOWS a row, NULL where not matched.
 */
const WRITE_SQL = `WITH
a AS (INSERT INTO attestations (${columns(ATTESTATION_COLS)})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::timestamp(3)[], $40::text[])),
n AS (INSERT INTO log_nodes (level, "index", hash) SELECT * FROM unnest($10::int[], $11::bigint[], $12::bytea[])),
c AS (INSERT INTO checkpoints (tree_size, root_hash, note, signature, "timestamp")
  SELECT * FROM unnest($13::bigint[], $14::bytea[], $15::text[], $16::text[], $17::timestamp(3)[])),
p AS (INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type,
    file_name, file_size, category, visibility, ai_metadata, verification_count, created_at)
  SELECT id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type, file_name, file_size, category,
    visibility, ai_metadata, 0, created_at
  FROM unnest($18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[],
    $27::bigint[], $28::text[], $29::text[], $30::text[], $31::timestamp(3)[])
    AS t(id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type, file_name, file_size, category,
      visibility, ai_metadata, created_at)),
f AS (INSERT INTO fingerprints (protection_id, alg, hash, quality, created_at, ${PDQ_WINDOW_COLUMNS.join(", ")}, hash_bytes)
  SELECT t.protection_id, t.alg, t.hash, t.quality, t.created_at, ${PDQ_WINDOW_COLUMNS.map((_, k) => `($46::int[])[(t.ord - 1) * ${PDQ_WINDOWS} + ${k + 1}]`).join(", ")}, t.hash_bytes
  FROM unnest($41::text[], $42::text[], $43::text[], $44::int[], $45::timestamp(3)[], $47::bytea[]) WITH ORDINALITY
    AS t(protection_id, alg, hash, quality, created_at, hash_bytes, ord)),
i AS (INSERT INTO idempotency_records (tenant_id, key, request_hash, status, response, created_at)
  SELECT * FROM unnest($32::text[], $33::text[], $34::text[], $35::int[], $36::text[], $37::timestamp(3)[])
  ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
    response = excluded.response, created_at = excluded.created_at),
u AS (INSERT INTO usage_counters (user_id, month, "count") SELECT * FROM unnest($48::text[], $49::text[], $50::int[])
  ON CONFLICT (user_id, month) DO UPDATE SET "count" = usage_counters."count" + excluded."count")
UPDATE log SET tree_size = $38::bigint, root_hash = $39::bytea WHERE id = 1 AND $38::bigint IS NOT NULL`;

// One statement: a new month's row starts at one; an existing row grows only below the limit.
const USAGE_SQL = `INSERT INTO usage_counters (user_id, month, "count") VALUES ($1, $2, 1)
  ON CONFLICT (user_id, month) DO UPDATE SET "count" = usage_counters."count" + 1
  WHERE $3::int IS NULL OR usage_counters."count" < $3::int
  RETURNING "count"`;

/** What a batch writes, gathered until step 3. */
class Pending {
  attestations: AttestationInsert[] = [];
  nodes: StoredNode[] = [];
  checkpoints: Checkpoint[] = [];
  protections: ProtectionInsert[] = [];
  fingerprints: FingerprintInsert[] = [];
  /** Keyed by (tenant, key): a later put of the same key replaces the earlier, as an upsert would. */
  records = new Map<string, IdempotencyRecord>();
  /** Units taken from usage counters read ahead, by (user, month): added to each counter, or a new one started at it. */
  usage = new Map<string, { userId: string; month: string; taken: number }>();
  head: { size: number; root: Uint8Array } | null = null;

  get empty(): boolean {
    return (
      !this.attestations.length &&
      !this.nodes.length &&
      !this.checkpoints.length &&
      !this.protections.length &&
      !this.fingerprints.length &&
      !this.records.size &&
      !this.usage.size &&
      !this.head
    );
  }

  values(): unknown[] {
    const a = this.attestations;
    const p = this.protections;
    const r = [...this.records.values()];
    const cp = this.checkpoints;
    const f = this.fingerprints;
    const u = [...this.usage.values()];
    return [
      a.map((x) => x.id),
      a.map((x) => x.tenantId),
      a.map((x) => x.issuerId),
      a.map((x) => x.kid),
      a.map((x) => x.payload),
      a.map((x) => x.signature),
      a.map((x) => x.status),
      a.map((x) => String(x.logIndex)),
      a.map((x) => iso(x.createdAt)),
      this.nodes.map((n) => n.level),
      this.nodes.map((n) => String(n.index)),
      this.nodes.map((n) => Buffer.from(n.hash)),
      cp.map((x) => String(x.treeSize)),
      cp.map((x) => Buffer.from(x.rootHash)),
      cp.map((x) => x.note),
      cp.map((x) => x.signature),
      cp.map((x) => iso(x.timestamp)),
      p.map((x) => x.id),
      p.map((x) => x.tenantId),
      p.map((x) => x.userId),
      p.map((x) => x.attestationId),
      p.map((x) => x.contentHash),
      p.map((x) => x.title),
      p.map((x) => x.description),
      p.map((x) => x.contentType),
      p.map((x) => x.fileName),
      p.map((x) => (x.fileSize === null ? null : String(x.fileSize))),
      p.map((x) => x.category),
      p.map((x) => x.visibility),
      p.map((x) => x.aiMetadata),
      p.map((x) => iso(x.createdAt)),
      r.map((x) => x.tenantId),
      r.map((x) => x.key),
      r.map((x) => x.requestHash),
      r.map((x) => x.status),
      r.map((x) => x.response),
      r.map((x) => iso(x.createdAt)),
      this.head ? String(this.head.size) : null,
      this.head ? Buffer.from(this.head.root) : null,
      a.map((x) => x.seal ?? null),
      f.map((x) => x.protectionId),
      f.map((x) => x.alg),
      f.map((x) => x.hash),
      f.map((x) => x.quality),
      f.map((x) => iso(x.createdAt)),
      f.flatMap((x) => x.windows ?? NO_PDQ_WINDOWS),
      f.map((x) => x.hashBytes),
      u.map((x) => x.userId),
      u.map((x) => x.month),
      u.map((x) => x.taken),
    ];
  }
}

/**
 * The writer of one append transaction on `client`. Reads run at once; writes gather in
 * Pending and go in one statement at flush (before any later read, so reads see them, and
 * before COMMIT). A failed statement leaves a PostgreSQL transaction aborted, so the first
 * failure is kept and the append fails with it even if an effect caught it. The writer is
 * closed once its transaction ends: a late write throws instead of being lost.
 */
class PgWriter implements LogWriter {
  private pending = new Pending();
  private frontier: NodeHashes = new Map();
  failure: unknown = null;
  closed = false;
  readonly entries: EntryWriter;

  /** Records read ahead by preloadIdempotencyRecords (null: read, none), kept current by puts. */
  private knownRecords = new Map<string, IdempotencyRecord | null>();
  /** Usage counters read ahead by preloadUsage, by (user, month), with the units this transaction took. */
  private knownCounts = new Map<string, number>();

  constructor(private readonly client: pg.PoolClient) {
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
    const results = (await this.db.query({ text: BEGIN_SQL(APPEND_TIMEOUTS), types } as pg.QueryConfig)) as unknown as pg.QueryResult[];
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

/**
 * A lookup by key whose calls made in one turn of the event loop share one statement: the
 * requests of a busy instance authenticate together (one round trip, one syscall each way,
 * instead of one per request; measured, each round trip costs this process 0.2-0.4 ms of
 * CPU on these machines), as the SQLite reads share one message to their worker.
 */
function batchedLookup<V>(fetch: (keys: string[]) => Promise<Map<string, V>>): (key: string) => Promise<V | null> {
  let waiting: Map<string, { resolve(v: V | null): void; reject(e: unknown): void }[]> | null = null;
  const flush = async (batch: NonNullable<typeof waiting>) => {
    try {
      const found = await fetch([...batch.keys()]);
      for (const [k, ws] of batch) for (const w of ws) w.resolve(found.get(k) ?? null);
    } catch (err) {
      for (const ws of batch.values()) for (const w of ws) w.reject(err);
    }
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (!waiting) {
        const batch = (waiting = new Map());
        setImmediate(() => {
          waiting = null;
          void flush(batch);
        });
      }
      const ws = waiting.get(key);
      if (ws) ws.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}

export function pgStore(pool: pg.Pool): Store {
  const db = pooled(pool);
  const apiKeyByHash = batchedLookup(async (hashes) => {
    const rows = await run(db, "hm_api_keys", `SELECT ${list("k", API_KEY_COLS)} FROM api_keys k WHERE k.secret_hash = ANY($1::text[])`, [
      hashes,
    ]);
    return new Map(rows.map((r) => [r.secret_hash as string, apiKeyRow(r)]));
  });
  return {
    reads: {
      apiKeyByHash,
      attestation: (id, tenantId) =>
        one(
          db,
          "hm_attestation",
          `SELECT ${list("a", ATTESTATION_COLS)} FROM attestations a WHERE a.id = $1 AND a.tenant_id = $2`,
          [id, tenantId],
          attestationRow,
        ),
      issuer: (id) => one(db, "hm_issuer", `SELECT ${list("i", ISSUER_COLS)} FROM issuers i WHERE i.id = $1`, [id], issuerRow),
      signingKey: (kid) =>
        one(db, "hm_signing_key", `SELECT ${list("k", KEY_COLS)} FROM signing_keys k WHERE k.kid = $1`, [kid], signingKeyRow),
      latestCheckpoint: () =>
        one(
          db,
          "hm_latest_checkpoint",
          `SELECT ${list("c", CHECKPOINT_COLS)} FROM checkpoints c ORDER BY c.tree_size DESC LIMIT 1`,
          [],
          checkpointRow,
        ),
      nodes: (positions) => readNodes(db, positions),
      bundleRows: async (id, tenantId) => bundleRowsOf((await run(db, "hm_bundle", BUNDLE_SQL, [id, tenantId]))[0], id),
    },
    append: async (fn) => {
      const client = await connect(pool);
      // pg-pool removes its own listener from a client it hands out: without this one, a
      // connection lost mid-append (a restart, a failover, a terminated backend) would be an
      // unhandled 'error' event and take the process down.
      let broken: Error | undefined;
      const onError = (err: Error) => void (broken ??= err);
      client.on("error", onError);
      const w = new PgWriter(client);
      try {
        const result = await fn(w);
        if (w.failure) throw w.failure;
        await w.flush();
        w.closed = true;
        // COMMIT of an aborted transaction answers ROLLBACK, not an error.
        const done = await client.query("COMMIT");
        if (done.command !== "COMMIT") throw Object.assign(new Error("the append's transaction was rolled back"), { code: "40000" });
        return result;
      } catch (err) {
        w.closed = true;
        await client.query("ROLLBACK").catch((e: Error) => void (broken ??= e));
        throw err;
      } finally {
        client.off("error", onError);
        // A connection that failed or could not roll back is in an unknown state: the pool drops it.
        client.release(broken);
      }
    },
    close: async () => {},
  };
}

/**
 * A failure to reach the database (no connection free in time, a refused or reset socket)
 * carries no SQLSTATE: it is given 08000, connection_exception, so isBusy answers 503.
 * PostgreSQL's own errors keep their code.
 */
function connectionFailure(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return err;
  return Object.assign(new Error(`database unreachable: ${(err as Error)?.message ?? String(err)}`), { code: "08000", cause: err });
}

async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    throw connectionFailure(err);
  }
}

/** The pool as a Runner for reads, its connection failures marked as such. */
const pooled = (pool: pg.Pool): Runner => ({
  query: (config) => pool.query(config).catch((err: unknown) => Promise.reject(connectionFailure(err))),
});
