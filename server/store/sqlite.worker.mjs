// @ts-check
// A SQLite worker (server/store/sqlite-worker.ts): runs statements on its own connection, on its
// own thread. Its role, from workerData: "read" (server/store/sqlite-reader.ts: query_only, one
// statement at a time) or "write" (server/store/sqlite-writer.ts: the log's append transactions,
// committed with synchronous = FULL here, so neither the statements nor the commit's fsync hold
// the event loop). Plain JavaScript: Next.js bundles it as a worker entry, tsx and Vitest run
// it as it is.
//
// Messages in: batches of ops { id, s, sql?, args?, rows?, mode, expand? }, where s numbers a
// statement and sql comes with its first use. mode: "get" or "all" (rows), "run" (the number of
// rows changed), "each" (runs the statement once per element of rows), "begin", "commit",
// "rollback" (s unused). Messages out: batches of { id, value } or { id, error: { message, code } },
// in the order received, for the ops whose id is not 0.
//
// On the writer, the first op that fails fails the transaction: every later op is refused with
// that error until the "rollback" the writer always sends after a failure. So a write sent
// without waiting for its answer that failed fails the commit instead of committing without it.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { readPragmas } from "../sqlite-pragmas.mjs";

/**
 * @typedef {"get" | "all" | "run" | "each" | "begin" | "commit" | "rollback"} Mode
 * @typedef {{ id: number, s: number, sql?: string, args?: unknown[], rows?: unknown[][], mode: Mode, expand?: boolean }} Op
 * @typedef {{ message: string, code?: string }} OpError
 */

const port = parentPort;
if (!port) throw new Error("sqlite.worker.mjs runs as a worker thread (server/store/sqlite-worker.ts)");
/** @type {{ file: string, sizes: import("../sqlite-pragmas.mjs").SqliteSizes, role: "read" | "write" }} */
const { file, sizes, role } = workerData;

const db = new Database(file, { fileMustExist: true });
// The same settings as the database handle's connections (server/db.ts).
for (const pragma of readPragmas(sizes)) db.pragma(pragma);
if (role === "write") {
  // Durable at COMMIT: the answer to a commit is sent only once the WAL is on disk.
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
} else {
  db.pragma("query_only = ON");
}
db.defaultSafeIntegers(true);

/**
 * Each statement's text, by its number.
 * @type {string[]}
 */
const texts = [];
/**
 * Each statement that prepared, by its number.
 * @type {import("better-sqlite3").Statement<unknown[]>[]}
 */
const statements = [];
const control = {
  // IMMEDIATE: the write lock first, waiting within the busy timeout for another process's writer.
  begin: db.prepare("BEGIN IMMEDIATE"),
  commit: db.prepare("COMMIT"),
  rollback: db.prepare("ROLLBACK"),
};
/**
 * Why the open transaction failed, if it did.
 * @type {OpError | null}
 */
let failed = null;

/** @param {Op} op */
function statement({ s, expand }) {
  // A statement is kept only once it prepared, so a failed prepare (a missing table,
  // SQLITE_BUSY) is tried again on the next use.
  let stmt = statements[s];
  if (!stmt) {
    if (texts[s] === undefined) throw new Error(`statement ${s} was never sent`);
    stmt = db.prepare(texts[s]);
    if (expand) stmt.expand(true);
    statements[s] = stmt;
  }
  return stmt;
}

/** @param {Op} op */
function run(op) {
  // A write outside a transaction would commit on its own: a worker that replaced one that
  // died mid-transaction must refuse that transaction's later writes, not apply them.
  if (role === "write" && !db.inTransaction && op.mode !== "begin") throw new Error("no transaction is open on the SQLite writer");
  switch (op.mode) {
    case "begin":
      failed = null;
      return control.begin.run().changes;
    case "commit":
      return control.commit.run().changes;
    case "get":
      return statement(op).get(...(op.args ?? []));
    case "all":
      return statement(op).all(...(op.args ?? []));
    case "run":
      return statement(op).run(...(op.args ?? [])).changes;
    case "each": {
      const stmt = statement(op);
      let changes = 0;
      for (const args of op.rows ?? []) changes += stmt.run(...args).changes;
      return changes;
    }
    default:
      throw new Error(`unknown op ${op.mode}`);
  }
}

/**
 * @param {unknown} err
 * @returns {OpError}
 */
function errorOf(err) {
  const code = /** @type {{ code?: string } | null | undefined} */ (err)?.code;
  return { message: err instanceof Error ? err.message : String(err), code };
}

port.on("message", (/** @type {Op[]} */ batch) => {
  const out = [];
  for (const op of batch) {
    // The text arrives once, with the statement's first use, whether that op runs or is refused.
    if (op.sql !== undefined) texts[op.s] = op.sql;
    if (op.mode === "rollback") {
      failed = null;
      try {
        // A failed COMMIT or statement may have ended the transaction already.
        if (db.inTransaction) control.rollback.run();
        if (op.id) out.push({ id: op.id, value: 0 });
      } catch (err) {
        if (op.id) out.push({ id: op.id, error: errorOf(err) });
      }
      continue;
    }
    if (failed) {
      if (op.id) out.push({ id: op.id, error: failed });
      continue;
    }
    try {
      const value = run(op);
      if (op.id) out.push({ id: op.id, value });
    } catch (err) {
      const error = errorOf(err);
      if (role === "write") failed = error;
      if (op.id) out.push({ id: op.id, error });
    }
  }
  if (out.length) port.postMessage(out);
});
