// @ts-check
// The SQLite read worker (server/store/sqlite-reader.ts): runs read statements on its own
// connection, on its own thread. Plain JavaScript: Next.js bundles it as a worker entry, tsx
// and Vitest run it as it is.
//
// Messages in: batches of { id, s, sql?, args, all, expand }, where s numbers a statement and
// sql comes with the first use of s. Messages out: batches of { id, value } or
// { id, error: { message, code } }, in the order received.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { readPragmas } from "../sqlite-pragmas.mjs";

/** @typedef {{ id: number, s: number, sql?: string, args: unknown[], all: boolean, expand: boolean }} ReadRequest */

const port = parentPort;
if (!port) throw new Error("sqlite-reader.worker.mjs runs as a worker thread (server/store/sqlite-reader.ts)");
/** @type {{ file: string, sizes: import("../sqlite-pragmas.mjs").SqliteSizes }} */
const { file, sizes } = workerData;

const db = new Database(file, { fileMustExist: true });
// The same settings as the database handle's connections (server/db.ts), and never a write.
for (const pragma of readPragmas(sizes)) db.pragma(pragma);
db.pragma("query_only = ON");
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

port.on("message", (/** @type {ReadRequest[]} */ batch) => {
  const out = [];
  for (const { id, s, sql, args, all, expand } of batch) {
    try {
      // The text arrives once; a statement is kept only once it prepared, so a failed
      // prepare (a missing table, SQLITE_BUSY) is tried again on the next use.
      if (sql !== undefined) texts[s] = sql;
      let stmt = statements[s];
      if (!stmt) {
        if (texts[s] === undefined) throw new Error(`statement ${s} was never sent`);
        stmt = db.prepare(texts[s]);
        if (expand) stmt.expand(true);
        statements[s] = stmt;
      }
      out.push({ id, value: all ? stmt.all(...args) : stmt.get(...args) });
    } catch (err) {
      const code = /** @type {{ code?: string } | null | undefined} */ (err)?.code;
      out.push({ id, error: { message: err instanceof Error ? err.message : String(err), code } });
    }
  }
  port.postMessage(out);
});
