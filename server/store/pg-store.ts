import "server-only";
import type pg from "pg";
import { pgReads } from "./pg-reads";
import type { Runner } from "./pg-statements";
import { type AppendTimeouts, PgWriter } from "./pg-writer";
import type { Store } from "./types";

/** A stuck append is answered 503 (isBusy) instead of holding the log for every instance. */
export const APPEND_TIMEOUTS: AppendTimeouts = { lockMs: 15_000, statementMs: 30_000, idleMs: 30_000 };

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
 * The lookups are pg-reads.ts, the append's writer pg-writer.ts with its one write statement in
 * pg-batch-write.ts, and what their statements share pg-statements.ts.
 */
export function pgStore(pool: pg.Pool): Store {
  return {
    reads: pgReads(pooled(pool)),
    append: async (fn) => {
      const client = await connect(pool);
      // pg-pool removes its own listener from a client it hands out: without this one, a
      // connection lost mid-append (a restart, a failover, a terminated backend) would be an
      // unhandled 'error' event and take the process down.
      let broken: Error | undefined;
      const onError = (err: Error) => void (broken ??= err);
      client.on("error", onError);
      const w = new PgWriter(client, APPEND_TIMEOUTS);
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
