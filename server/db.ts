import "server-only";
import { processWide } from "./process-wide";
import type BetterSqlite3 from "better-sqlite3";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient as SqliteClient, type Prisma } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { getConfig } from "./config";
import { pdqDistanceBytes } from "@/lib/fingerprint/pdq";
import { readPragmas, type SqliteSizes } from "./sqlite-pragmas.mjs";
import { createPrivateFile, makePrivateDir } from "./private-files.mjs";

/** Both generated clients have the same model API; the SQLite one names the type. */
export type Client = SqliteClient;
export type Tx = Prisma.TransactionClient;

/**
 * Storage contract:
 * - `read` never observes uncommitted writes.
 * - `write(fn)` runs fn in one transaction; it is durable once the promise resolves.
 *   Every write goes through it: on SQLite the adapter serialises transactions on one
 *   connection, and a write issued outside one would slip into whichever transaction is open.
 */
export interface Database {
  kind: "sqlite" | "postgres";
  /**
   * SQLite only: the database file, the raw connection under `write` (set once connected), and
   * `exclusive`, which runs fn while no `write` of this process is open and holds off any `write`
   * until fn settles (the log's append, on its own connection: server/store/sqlite-writer.ts).
   */
  sqlite?: { file: string; writer: RawHandle; exclusive<T>(fn: () => Promise<T>): Promise<T> };
  /** PostgreSQL only: the connection pool Prisma uses, shared with server/store/pg-store.ts. */
  pg?: pg.Pool;
  read: Client;
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/** The connection under an adapter, for the prepared statements of server/store/sqlite-store.ts. */
export interface RawHandle {
  connection: BetterSqlite3.Database | null;
}

/** The handle's connection; inside `db.write` it is always there (the transaction opened it). */
function rawConnection(handle: RawHandle): BetterSqlite3.Database {
  if (!handle.connection) throw new Error("SQLite connection is not available");
  return handle.connection;
}

/** Adds the pragmas the adapter does not set: WAL, durable commits, a busy timeout. */
class SqliteAdapter extends PrismaBetterSQLite3 {
  constructor(
    url: string,
    private readonly readOnly: boolean,
    private readonly handle?: RawHandle,
  ) {
    super({ url });
  }
  override async connect() {
    const adapter = await super.connect();
    const raw = (adapter as unknown as { client: BetterSqlite3.Database }).client;
    if (this.handle) this.handle.connection = raw;
    raw.pragma("journal_mode = WAL");
    raw.pragma("synchronous = FULL");
    raw.pragma("foreign_keys = ON");
    for (const pragma of readPragmas(sqliteSizes())) raw.pragma(pragma);
    if (this.readOnly) raw.pragma("query_only = ON");
    // Similar-image lookup measures each candidate's distance inside the query, so only the
    // matches leave SQLite (server/domain/protections/similar-lookup.ts; PostgreSQL has bit_count).
    raw.function("pdq_distance", { deterministic: true }, (a: unknown, b: unknown) =>
      a instanceof Uint8Array && b instanceof Uint8Array ? pdqDistanceBytes(a, b) : null,
    );
    return adapter;
  }
}

/**
 * The first statement of every write transaction on SQLite: a write that changes nothing, so
 * the transaction holds the write lock before it reads. The adapter opens transactions with a
 * plain (deferred) BEGIN: a read would take a snapshot, and if another process (`npm run admin`
 * beside the server) committed before the transaction's first write, that write would fail at
 * once with SQLITE_BUSY, busy timeout or not. Taking the lock first waits within the busy
 * timeout instead. (Making BEGIN itself IMMEDIATE is not safe: the adapter does not release its
 * mutex when BEGIN throws.) If the wait times out, the statement throws and the transaction
 * rolls back as any other failure does.
 */
function takeWriteLock(handle: RawHandle): void {
  const conn = rawConnection(handle);
  let lock = lockStatements.get(conn);
  if (!lock) lockStatements.set(conn, (lock = conn.prepare("DELETE FROM checkpoints WHERE 0")));
  lock.run();
}
const lockStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/**
 * Runs the functions given one at a time, in the order given. Two write transactions of one
 * process on two connections must not overlap: the second would wait for SQLite's lock by
 * sleeping on the thread, and if that is the event loop, the first could never finish.
 */
function takingTurns(): <T>(fn: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const turn = last.then(fn);
    last = turn.catch(() => {});
    return turn;
  };
}

function openSqlite(url: string): Database {
  const file = url.replace(/^file:/, "");
  makePrivateDir(path.dirname(path.resolve(file)));
  // Owner-only from its creation: SQLite creates the -wal and -shm with the database file's mode.
  createPrivateFile(file);
  const exclusive = takingTurns();
  const handles = { file, writer: { connection: null }, exclusive };
  const writer = new SqliteClient({ adapter: new SqliteAdapter(url, false, handles.writer) });
  // A second connection for reads: under WAL it sees only committed transactions.
  const reader = new SqliteClient({ adapter: new SqliteAdapter(url, true) });
  return {
    kind: "sqlite",
    sqlite: handles,
    read: reader,
    write: (fn) =>
      exclusive(() =>
        writer.$transaction(async (tx) => {
          takeWriteLock(handles.writer);
          return fn(tx);
        }, TX_OPTIONS),
      ),
    close: async () => {
      await Promise.all([writer.$disconnect(), reader.$disconnect()]);
    },
  };
}

function openPostgres(url: string): Database {
  // A connection not free within 15 s is a busy database (503), as Prisma's maxWait was.
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.HALLMARK_PG_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 15_000,
  });
  // An idle connection the server dropped: the pool discards it; without a listener it would crash the process.
  pool.on("error", () => {});
  const client = new PostgresClient({ adapter: new PrismaPg(pool) }) as unknown as Client;
  return {
    kind: "postgres",
    pg: pool,
    read: client,
    write: (fn) => client.$transaction(fn, TX_OPTIONS),
    close: async () => {
      await client.$disconnect();
      await pool.end();
    },
  };
}

/** Every SQLite connection's page cache and map, from the configuration. */
export function sqliteSizes(): SqliteSizes {
  const { sqliteCacheMb, sqliteMmapMb } = getConfig();
  return { cacheMb: sqliteCacheMb, mmapMb: sqliteMmapMb };
}

/** The one database handle of this process. */
export function getDb(): Database {
  return processWide("db", () => {
    const { databaseUrl, dbKind } = getConfig();
    return dbKind === "sqlite" ? openSqlite(databaseUrl) : openPostgres(databaseUrl);
  });
}

/** Prisma's Bytes input type wants an ArrayBuffer-backed array; ours always are. */
export const dbBytes = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes as Uint8Array<ArrayBuffer>;

/**
 * True for a database that is busy rather than a request that is wrong: SQLite's lock held by
 * another process past the busy timeout (SQLITE_BUSY from a raw statement, P1008 through
 * Prisma), a transaction that could not start or finish in time (P2028), a write conflict or
 * deadlock (P2034 through Prisma); from PostgreSQL's own statements (server/store/pg-store.ts)
 * a connection failure or none free in time (class 08), a transaction rolled back by the
 * server (class 40: serialization failure, deadlock), a lock or statement timeout (55P03,
 * 57014), a server shutting down or starting (57P01, 57P03), too many connections (53300).
 * Worth a retry a moment later.
 */
const BUSY_CODES = new Set(["P1008", "P2028", "P2034", "55P03", "57014", "57P01", "57P03", "53300"]);
export const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return BUSY_CODES.has(code) || code.startsWith("SQLITE_BUSY") || /^(08|40)[0-9A-Z]{3}$/.test(code);
};

/** True for a unique-constraint violation: Prisma's P2002 on either database, or PostgreSQL's own 23505. */
export const isUniqueViolation = (err: unknown): boolean => {
  const code = (err as { code?: string } | null)?.code;
  return code === "P2002" || code === "23505";
};
