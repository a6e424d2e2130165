import "server-only";
import { SHARD_BITS } from "../merkle/positions";
import {
  API_KEY_COLS,
  ATTESTATION_COLS,
  CHECKPOINT_COLS,
  ISSUER_COLS,
  KEY_COLS,
  list,
  one,
  PUBLIC_KEY_COLS,
  readNodes,
  type Row,
  type Runner,
  run,
} from "./pg-statements";
import {
  apiKeyRow,
  attestationRow,
  checkpointRow,
  issuerRow,
  publicSigningKeyRow,
  SIBLING_LEVELS,
  siblingNodes,
  signingKeyRow,
} from "./raw-rows";
import type { BundleRows, HotReads } from "./types";

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
 * A lookup by key whose calls made in one turn of the event loop share one statement: the
 * requests of a busy instance authenticate together (one round trip, one syscall each way,
 * instead of one per request: a round trip costs this process CPU whatever it carries,
 * docs/performance.md, "Writes on PostgreSQL"), as the SQLite reads share one message to their
 * worker.
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

/** The hot reads on `db` (the pool): each one statement. */
export function pgReads(db: Runner): HotReads {
  const apiKeyByHash = batchedLookup(async (hashes) => {
    const rows = await run(db, "hm_api_keys", `SELECT ${list("k", API_KEY_COLS)} FROM api_keys k WHERE k.secret_hash = ANY($1::text[])`, [
      hashes,
    ]);
    return new Map(rows.map((r) => [r.secret_hash as string, apiKeyRow(r)]));
  });
  return {
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
  };
}
