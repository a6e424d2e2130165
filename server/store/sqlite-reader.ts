import "server-only";
import type { SqliteSizes } from "../sqlite-pragmas.mjs";
import { type Sent, SqliteWorker } from "./sqlite-worker";

/** Where the hot read statements run: a statement runs to completion on one connection, so it sees one committed snapshot. */
export interface ReadExecutor {
  get(sql: string, args: unknown[], opts?: { expand?: boolean }): Promise<unknown>;
  all(sql: string, args: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * Read statements on a worker thread with its own connection (sqlite.worker.mjs, role "read").
 *
 * Why: inside the server, a statement run on the main thread costs several times what it
 * costs in a tight loop, because the server's other work evicts SQLite's code and pages from
 * the CPU caches between two statements; and it holds the event loop meanwhile. On its own
 * thread SQLite stays warm, and the server used less CPU per proof bundle in all, not just
 * another core (measured: docs/performance.md, "Writes and proof bundles"). This is what an asynchronous database driver
 * does anyway; PostgreSQL runs in its own processes.
 *
 * Statements issued in the same turn of the event loop travel in one message.
 */
export class WorkerReads implements ReadExecutor {
  private readonly worker: SqliteWorker;
  private queue: Sent[] = [];
  private flushScheduled = false;

  /** sizes: the worker connection's page cache and map (HALLMARK_SQLITE_CACHE_MB, HALLMARK_SQLITE_MMAP_MB). */
  constructor(file: string, sizes: SqliteSizes) {
    this.worker = new SqliteWorker(file, sizes, "read");
  }

  get(sql: string, args: unknown[], opts: { expand?: boolean } = {}): Promise<unknown> {
    return this.send(sql, args, "get", opts.expand ?? false);
  }

  all(sql: string, args: unknown[]): Promise<unknown[]> {
    return this.send(sql, args, "all", false) as Promise<unknown[]>;
  }

  /** Stops the worker; reads queued or in flight are rejected. A later read starts a new one. */
  async close(): Promise<void> {
    const queued = this.queue;
    this.queue = [];
    const closing = this.worker.close();
    const err = new Error("SQLite read worker closed");
    for (const op of queued) op.reject?.(err);
    await closing;
  }

  private send(sql: string, args: unknown[], mode: "get" | "all", expand: boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ sql, args, mode, expand, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const ops = this.queue;
    this.queue = [];
    this.worker.post(ops);
  }
}
