import "server-only";
import pg from "pg";
import { nodeKey, type NodePosition } from "../merkle/merkle-tree";
import type { NodeHashes } from "./types";

/**
 * What the PostgreSQL store's statements share: how a statement runs, how its columns are read,
 * the tables' columns, and the read of tree nodes both the lookups and the append make.
 * Reads are named prepared statements with their columns spelled out (a `SELECT *` prepared
 * on a connection fails once a migration adds a column). Rows come back in Prisma's shapes
 * (raw-rows.ts).
 */
export type Row = Record<string, unknown>;

// TIMESTAMP(3) columns hold UTC wall time (as Prisma writes them): read as ISO text in UTC, and
// written as ISO text (a timestamp without time zone ignores the zone suffix, so the wall
// time stays UTC whatever this process's time zone). BIGINT is read exactly, as bigint.
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
export const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP_OID) return (s: string) => s.replace(" ", "T") + "Z";
    if (oid === INT8_OID) return (s: string) => BigInt(s);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

export const iso = (d: Date): string => d.toISOString();

export interface Runner {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/** Runs the named statement `name` (prepared once per connection) with `values`. */
export async function run(db: Runner, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const res = await db.query({ name, text, values, types } as pg.QueryConfig);
  return res.rows as Row[];
}

export const one = async <T>(db: Runner, name: string, text: string, values: unknown[], map: (r: Row) => T): Promise<T | null> => {
  const rows = await run(db, name, text, values);
  return rows[0] ? map(rows[0]) : null;
};

export const list = (table: string, names: string[]) => names.map((c) => `${table}."${c}"`).join(", ");
export const columns = (names: string[]) => names.map((c) => `"${c}"`).join(", ");
export const ATTESTATION_COLS = [
  "id",
  "tenant_id",
  "issuer_id",
  "kid",
  "payload",
  "signature",
  "status",
  "log_index",
  "created_at",
  "seal",
];
export const ISSUER_COLS = ["id", "tenant_id", "name", "domain", "status", "trust_level", "personal_for", "created_at", "updated_at"];
export const PUBLIC_KEY_COLS = ["kid", "issuer_id", "algorithm", "public_key_pem", "status", "not_before", "expires_at", "created_at"];
export const KEY_COLS = [...PUBLIC_KEY_COLS, "private_key_enc"];
export const CHECKPOINT_COLS = ["tree_size", "root_hash", "note", "signature", "timestamp"];
export const API_KEY_COLS = [
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
export const IDEMPOTENCY_COLS = ["tenant_id", "key", "request_hash", "status", "response", "created_at"];

const NODES_SQL = `SELECT n.level, n."index", n.hash FROM log_nodes n
  JOIN unnest($1::int[], $2::bigint[]) AS p(level, idx) ON n.level = p.level AND n."index" = p.idx`;

/** Adds the nodes of `rows` (level, index, hash; a null hash is no node) to `map`. */
export function addNodes(map: NodeHashes, rows: Row[]): NodeHashes {
  for (const r of rows) if (r.hash !== null) map.set(nodeKey(Number(r.level), Number(r.index)), new Uint8Array(r.hash as Buffer));
  return map;
}

export async function readNodes(db: Runner, positions: readonly NodePosition[]): Promise<NodeHashes> {
  if (positions.length === 0) return new Map();
  return addNodes(new Map(), await run(db, "hm_nodes", NODES_SQL, [positions.map((p) => p.level), positions.map((p) => String(p.index))]));
}
