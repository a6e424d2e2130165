import "server-only";
import { pairKey } from "./pair-key";
import { NO_PDQ_WINDOWS, PDQ_WINDOW_COLUMNS } from "@/lib/fingerprint/pdq-index";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
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
  toSqliteDate,
} from "./raw-rows";
import type { ReadExecutor } from "./sqlite-reader";
import type { WorkerWrites, WriteTx } from "./sqlite-writer";
import type { BundleRows, EntryWriter, IdempotencyRecord, LogWriter, NodeHashes, Store } from "./types";
import { SHARD_BITS } from "../merkle/positions";

/**
 * The hot paths as prepared statements, which cost a small share of the same read through Prisma
 * (measured: docs/performance.md, "Choices in the hot paths"), each on a worker thread with its
 * own connection: reads on the ReadExecutor (sqlite-reader.ts), the log's append on the writer
 * (sqlite-writer.ts).
 */

/**
 * One statement for all the nodes: a UNION ALL of primary-key seeks, O(log n) each whatever
 * the log's size (a row-value IN list or an OR of the pairs plans worse, and one statement per
 * node costs more: docs/performance.md, "Choices in the hot paths"). Statements are prepared per
 * count, in chunks of NODE_CHUNK.
 */
const NODE_CHUNK = 32;
const nodeSeek = 'SELECT level, "index", hash FROM log_nodes WHERE level = ? AND "index" = ?';
const nodesSql = Array.from({ length: NODE_CHUNK + 1 }, (_, count) => Array.from({ length: count }, () => nodeSeek).join(" UNION ALL "));

type Query = { sql: string; args: unknown[] };
type NodeRow = { level: bigint; index: bigint; hash: Uint8Array };

function nodeQueries(positions: readonly NodePosition[]): Query[] {
  const queries: Query[] = [];
  for (let start = 0; start < positions.length; start += NODE_CHUNK) {
    const chunk = positions.slice(start, start + NODE_CHUNK);
    const args: unknown[] = [];
    for (const p of chunk) args.push(p.level, BigInt(p.index));
    queries.push({ sql: nodesSql[chunk.length]!, args });
  }
  return queries;
}

function nodeMap(results: unknown[][]): NodeHashes {
  const map: NodeHashes = new Map();
  for (const rows of results) for (const r of rows as NodeRow[]) map.set(nodeKey(Number(r.level), Number(r.index)), new Uint8Array(r.hash));
  return map;
}

/**
 * The attestation, its issuer and key (not the private key), the newest checkpoint, and the
 * leaf's siblings below the node cache's levels, in one statement: one snapshot, so the
 * checkpoint always covers the attestation, and one statement instead of two on the hottest
 * read, where each statement's own cost counts (docs/performance.md, "Writes and proof bundles"). The checkpoint is the newest of the
 * attestation's shard (server/merkle/positions.ts), the current one's newest for every new entry. Sibling k is node (k, (i >> k) XOR 1),
 * written with | and & as SQLite has no XOR; every inclusion proof of a leaf in a complete
 * block of 2^MIN_LEVEL leaves needs exactly these. Columns come back namespaced by table
 * (better-sqlite3's expand(); the siblings under "log_nodes"). A missing issuer, key or checkpoint
 * is a broken database, not an unknown id.
 */
const sibling = (k: number) => `((attestations.log_index >> ${k}) | 1) - ((attestations.log_index >> ${k}) & 1)`;
const BUNDLE_SQL = `SELECT attestations.*, issuers.*,
    signing_keys.kid, signing_keys.issuer_id, signing_keys.algorithm, signing_keys.public_key_pem, signing_keys.status,
    signing_keys.not_before, signing_keys.expires_at, signing_keys.created_at,
    checkpoints.*,
    ${SIBLING_LEVELS.map((k) => `(SELECT hash FROM log_nodes WHERE level = ${k} AND "index" = ${sibling(k)}) AS sibling${k}`).join(",\n    ")}
  FROM attestations
  LEFT JOIN issuers ON issuers.id = attestations.issuer_id
  LEFT JOIN signing_keys ON signing_keys.kid = attestations.kid
  LEFT JOIN checkpoints ON checkpoints.tree_size = (SELECT c.tree_size FROM checkpoints c
    WHERE c.tree_size < ((attestations.log_index >> ${SHARD_BITS}) + 1) << ${SHARD_BITS} ORDER BY c.tree_size DESC LIMIT 1)
  WHERE attestations.id = ? AND attestations.tenant_id = ?`;

type Expanded = Record<"attestations" | "issuers" | "signing_keys" | "checkpoints" | "log_nodes", Record<string, unknown>>;

function bundleRowsOf(r: Expanded | undefined, id: string): BundleRows | null {
  if (!r) return null;
  if (r.issuers.id === null || r.signing_keys.kid === null || r.checkpoints.tree_size === null) {
    throw new Error(`attestation ${id} refers to a missing issuer, key or checkpoint`);
  }
  const attestation = attestationRow(r.attestations);
  const lowerNodes = siblingNodes(attestation.logIndex, r.log_nodes);
  return {
    attestation,
    issuer: issuerRow(r.issuers),
    signingKey: publicSigningKeyRow(r.signing_keys),
    checkpoint: checkpointRow(r.checkpoints),
    lowerNodes,
  };
}

const IDEMPOTENCY_SELECT = "SELECT * FROM idempotency_records";
/** The pairs of a JSON array of [a, b] pairs, for a row-value IN. */
const PAIRS = "SELECT value ->> 0, value ->> 1 FROM json_each(?)";

/**
 * A transaction's own rows. Within one transaction the writer holds SQLite's write lock, so what
 * it read cannot change but through it: records and counters read once (or read ahead for the
 * whole batch) are kept here, current with this transaction's writes, and an admit decides
 * without a round trip to the writer thread.
 */
function entryWriter(tx: WriteTx): EntryWriter {
  const records = new Map<string, IdempotencyRecord | null>();
  const counts = new Map<string, number>();
  // The read-aheads are sent without waiting, so they travel with the next statement that does
  // (one round trip for both); the first lookup that needs one waits for it.
  let readAhead: Promise<unknown> = Promise.resolve();
  const ahead = (read: Promise<unknown>) => {
    readAhead = Promise.all([readAhead, read]);
    // A failed read fails the transaction (the writer refuses all after it); the lookup that waits says why.
    readAhead.catch(() => {});
  };
  const countOf = async (userId: string, month: string): Promise<number> => {
    await readAhead;
    const known = counts.get(pairKey(userId, month));
    if (known !== undefined) return known;
    const row = (await tx.get('SELECT "count" FROM usage_counters WHERE user_id = ? AND month = ?', [userId, month])) as
      | { count: bigint }
      | undefined;
    const count = Number(row?.count ?? 0);
    counts.set(pairKey(userId, month), count);
    return count;
  };
  return {
    preloadIdempotencyRecords: async (keys) => {
      ahead(
        tx
          .all(`${IDEMPOTENCY_SELECT} WHERE (tenant_id, key) IN (${PAIRS})`, [JSON.stringify(keys.map((k) => [k.tenantId, k.key]))])
          .then((rows) => {
            for (const k of keys) records.set(pairKey(k.tenantId, k.key), null);
            for (const r of rows as Record<string, unknown>[]) {
              const record = idempotencyRow(r);
              records.set(pairKey(record.tenantId, record.key), record);
            }
          }),
      );
    },
    idempotencyRecord: async (tenantId, key) => {
      await readAhead;
      const known = records.get(pairKey(tenantId, key));
      if (known !== undefined) return known;
      const row = (await tx.get(`${IDEMPOTENCY_SELECT} WHERE tenant_id = ? AND key = ?`, [tenantId, key])) as
        | Record<string, unknown>
        | undefined;
      return row ? idempotencyRow(row) : null;
    },
    putIdempotencyRecord: async (r) => {
      tx.run(
        `INSERT INTO idempotency_records (tenant_id, key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
           response = excluded.response, created_at = excluded.created_at`,
        [r.tenantId, r.key, r.requestHash, r.status, r.response, toSqliteDate(r.createdAt)],
      );
      records.set(pairKey(r.tenantId, r.key), r);
    },
    preloadUsage: async (keys) => {
      ahead(
        tx
          .all(`SELECT user_id, month, "count" FROM usage_counters WHERE (user_id, month) IN (${PAIRS})`, [
            JSON.stringify(keys.map((k) => [k.userId, k.month])),
          ])
          .then((rows) => {
            for (const k of keys) counts.set(pairKey(k.userId, k.month), 0);
            for (const r of rows as { user_id: string; month: string; count: bigint }[])
              counts.set(pairKey(r.user_id, r.month), Number(r.count));
          }),
      );
    },
    takeUsageUnit: async (userId, month, limit) => {
      const count = await countOf(userId, month);
      if (limit !== null && count >= limit) return false;
      counts.set(pairKey(userId, month), count + 1);
      tx.run(
        'INSERT INTO usage_counters (user_id, month, "count") VALUES (?, ?, 1) ON CONFLICT (user_id, month) DO UPDATE SET "count" = "count" + 1',
        [userId, month],
      );
      return true;
    },
    insertProtection: async (p) => {
      tx.run(
        `INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type, file_name,
           file_size, category, visibility, ai_metadata, verification_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        [
          p.id,
          p.tenantId,
          p.userId,
          p.attestationId,
          p.contentHash,
          p.title,
          p.description,
          p.contentType,
          p.fileName,
          p.fileSize,
          p.category,
          p.visibility,
          p.aiMetadata,
          toSqliteDate(p.createdAt),
        ],
      );
    },
    insertFingerprints: async (rows) => {
      tx.each(
        FINGERPRINT_INSERT,
        rows.map((f) => [
          f.protectionId,
          f.alg,
          f.hash,
          f.quality,
          toSqliteDate(f.createdAt),
          ...(f.windows ?? NO_PDQ_WINDOWS),
          f.hashBytes,
        ]),
      );
    },
  };
}

const FINGERPRINT_INSERT = `INSERT INTO fingerprints (protection_id, alg, hash, quality, created_at, ${PDQ_WINDOW_COLUMNS.join(", ")}, hash_bytes)
  VALUES (?, ?, ?, ?, ?, ${PDQ_WINDOW_COLUMNS.map(() => "?").join(", ")}, ?)`;

const ATTESTATION_INSERT =
  "INSERT INTO attestations (id, tenant_id, issuer_id, kid, payload, signature, status, log_index, created_at, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/** The append's statements, on the writer thread (sqlite-writer.ts): the writes travel with the next read, or the commit. */
function writer(tx: WriteTx): LogWriter {
  return {
    entries: entryWriter(tx),
    lockHead: async () => {
      const row = (await tx.get("UPDATE log SET updated_at = ? WHERE id = 1 RETURNING tree_size", [toSqliteDate(new Date())])) as {
        tree_size: bigint;
      };
      return Number(row.tree_size);
    },
    nodes: async (positions) => nodeMap(await Promise.all(nodeQueries(positions).map((q) => tx.all(q.sql, q.args)))),
    insertAttestations: async (rows) => {
      tx.each(
        ATTESTATION_INSERT,
        rows.map((a) => [
          a.id,
          a.tenantId,
          a.issuerId,
          a.kid,
          a.payload,
          a.signature,
          a.status,
          a.logIndex,
          toSqliteDate(a.createdAt),
          a.seal ?? null,
        ]),
      );
    },
    insertNodes: async (nodes) => {
      tx.each(
        'INSERT INTO log_nodes (level, "index", hash) VALUES (?, ?, ?)',
        nodes.map((n) => [n.level, BigInt(n.index), n.hash]),
      );
    },
    insertCheckpoint: async (cp) => {
      tx.run("INSERT INTO checkpoints (tree_size, root_hash, note, signature, timestamp) VALUES (?, ?, ?, ?, ?)", [
        cp.treeSize,
        cp.rootHash,
        cp.note,
        cp.signature,
        toSqliteDate(cp.timestamp),
      ]);
    },
    setHead: async (size, root) => {
      tx.run("UPDATE log SET tree_size = ?, root_hash = ? WHERE id = 1", [BigInt(size), root]);
    },
  };
}

export function sqliteStore(exec: ReadExecutor, writes: WorkerWrites): Store {
  const one = async <T>(sql: string, map: (r: Record<string, unknown>) => T, ...args: unknown[]): Promise<T | null> => {
    const row = (await exec.get(sql, args)) as Record<string, unknown> | undefined;
    return row ? map(row) : null;
  };
  return {
    reads: {
      apiKeyByHash: (hash) => one("SELECT * FROM api_keys WHERE secret_hash = ?", apiKeyRow, hash),
      attestation: (id, tenantId) => one("SELECT * FROM attestations WHERE id = ? AND tenant_id = ?", attestationRow, id, tenantId),
      issuer: (id) => one("SELECT * FROM issuers WHERE id = ?", issuerRow, id),
      signingKey: (kid) => one("SELECT * FROM signing_keys WHERE kid = ?", signingKeyRow, kid),
      latestCheckpoint: () => one("SELECT * FROM checkpoints ORDER BY tree_size DESC LIMIT 1", checkpointRow),
      nodes: async (positions) => nodeMap(await Promise.all(nodeQueries(positions).map((q) => exec.all(q.sql, q.args)))),
      bundleRows: async (id, tenantId) =>
        bundleRowsOf((await exec.get(BUNDLE_SQL, [id, tenantId], { expand: true })) as Expanded | undefined, id),
    },
    append: (fn) => writes.transaction((tx) => fn(writer(tx))),
    close: async () => {
      await Promise.all([exec.close(), writes.close()]);
    },
  };
}
