import "server-only";
import type { SqliteSizes } from "../sqlite-pragmas.mjs";
import { type Op, type Sent, SqliteWorker } from "./sqlite-worker";

/**
 * The statements of one transaction on the writer thread. Writes (`run`, `each`) are sent
 * without waiting: they travel, in order, with the next op that waits for its answer, and one
 * that fails fails that answer and the commit, so the transaction commits all of them or none.
 */
export interface WriteTx {
  run(sql: string, args: unknown[]): void;
  /** Runs `sql` once per element of `rows`. */
  each(sql: string, rows: unknown[][]): void;
  get(sql: string, args: unknown[]): Promise<unknown>;
  all(sql: string, args: unknown[]): Promise<unknown[]>;
  /** Runs `sql` and answers how many rows it changed. */
  changes(sql: string, args: unknown[]): Promise<number>;
}

/** Runs `fn` while no other write transaction of this process is open (db.ts, Database.sqlite.exclusive). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Write transactions on a worker thread with its own connection (sqlite.worker.mjs, role
 * "write"): the statements and the commit's fsync run there, and the event loop goes on
 * meanwhile (measured: docs/performance.md, "Bulk attestation"). A transaction is BEGIN
 * IMMEDIATE, the statements `fn` issues, then COMMIT once `fn` resolves, or ROLLBACK if anything
 * failed; it resolves only once the commit is durable (synchronous = FULL). Transactions of this
 * process take turns with `exclusive`, shared with db.write's (Prisma's connection), so two
 * connections of one process never wait for each other's lock; another process (`npm run admin`)
 * is waited for within the busy timeout, on the worker.
 */
export class WorkerWrites {
  private readonly worker: SqliteWorker;

  constructor(
    file: string,
    sizes: SqliteSizes,
    private readonly exclusive: Exclusive,
  ) {
    this.worker = new SqliteWorker(file, sizes, "write");
  }

  transaction<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const pending: Sent[] = [{ mode: "begin" }];
      // The first answer that failed: the transaction does not commit after it, even if `fn`
      // went on (the worker refuses everything after a failure it saw; this covers a message
      // that never reached it, whose writes are lost).
      const state: { failure: { err: unknown } | null; ended: boolean } = { failure: null, ended: false };
      const ask = (op: Op): Promise<unknown> =>
        new Promise((resolve, reject) => {
          pending.push({
            ...op,
            resolve,
            reject: (err) => {
              state.failure ??= { err };
              reject(err);
            },
          });
          this.worker.post(pending.splice(0));
        });
      const write = (op: Sent) => {
        if (state.ended) throw new Error("the append's transaction has ended");
        pending.push(op);
      };
      const tx: WriteTx = {
        run: (sql, args) => write({ sql, mode: "run", args }),
        each: (sql, rows) => write({ sql, mode: "each", rows }),
        get: (sql, args) => ask({ sql, mode: "get", args }),
        all: (sql, args) => ask({ sql, mode: "all", args }) as Promise<unknown[]>,
        changes: (sql, args) => ask({ sql, mode: "run", args }) as Promise<number>,
      };
      let value: T;
      try {
        value = await fn(tx);
        if (state.failure) throw state.failure.err;
        await ask({ mode: "commit" });
      } catch (err) {
        pending.length = 0; // what fn left unsent is not sent
        // The worker refuses everything after a failure until this; if the worker died, the
        // transaction died with its connection.
        await ask({ mode: "rollback" }).catch(() => {});
        throw err;
      } finally {
        state.ended = true;
      }
      return value;
    });
  }

  /** Stops the worker; a transaction in flight fails (its connection rolls it back). A later one starts a new worker. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
