import "server-only";
import type { SqliteSizes } from "../sqlite-pragmas.mjs";
import { logger } from "../observability/logger.mjs";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** Where the hot read statements run: a statement runs to completion on one connection, so it sees one committed snapshot. */
export interface ReadExecutor {
  get(sql: string, args: unknown[], opts?: { expand?: boolean }): Promise<unknown>;
  all(sql: string, args: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

// Next.js's build recognises this path and bundles the worker as its own entry; tsx and Vitest
// run the file itself.
const WORKER_FILE = path.join(process.cwd(), "server/store/sqlite-reader.worker.mjs");

type Item = {
  id: number;
  s: number;
  sql: string;
  args: unknown[];
  all: boolean;
  expand: boolean;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
};
type Result = { id: number; value?: unknown; error?: { message: string; code?: string } };

/** After a worker fails before answering anything, reads fail fast for this long instead of starting another. */
const RESTART_PAUSE_MS = 1000;

/**
 * Read statements on a worker thread with its own connection (sqlite-reader.worker.mjs).
 *
 * Why: inside the server, a statement run on the main thread costs several times what it
 * costs in a tight loop, because the server's other work evicts SQLite's code and pages from
 * the CPU caches between two statements; and it holds the event loop meanwhile. On its own
 * thread SQLite stays warm, and the server used less CPU per proof bundle in all, not just
 * another core (measured: docs/performance.md, "Writes and proof bundles"). This is what an asynchronous database driver
 * does anyway; PostgreSQL runs in its own processes.
 *
 * Statements issued in the same turn of the event loop travel in one message. The worker
 * starts with the first read; if it stops, what was in flight is rejected and the next read
 * starts a new one.
 */
export class WorkerReads implements ReadExecutor {
  private worker: Worker | null = null;
  private answered = false;
  private startFailure: { err: Error; at: number } | null = null;
  private readonly statementIds = new Map<string, number>();
  private sentToWorker = new Set<number>();
  private queue: Item[] = [];
  private readonly inFlight = new Map<number, Item>();
  private nextId = 0;
  private flushScheduled = false;

  /** sizes: the worker connection's page cache and map (HALLMARK_SQLITE_CACHE_MB, HALLMARK_SQLITE_MMAP_MB). */
  constructor(
    private readonly file: string,
    private readonly sizes: SqliteSizes,
  ) {}

  get(sql: string, args: unknown[], opts: { expand?: boolean } = {}): Promise<unknown> {
    return this.send(sql, args, false, opts.expand ?? false);
  }

  all(sql: string, args: unknown[]): Promise<unknown[]> {
    return this.send(sql, args, true, false) as Promise<unknown[]>;
  }

  /** Stops the worker; reads queued or in flight are rejected. A later read starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    const err = new Error("SQLite read worker closed");
    this.stopped(worker, err);
    this.rejectAll(this.queue, err);
    this.queue = [];
    if (worker) await worker.terminate();
  }

  private send(sql: string, args: unknown[], all: boolean, expand: boolean): Promise<unknown> {
    let s = this.statementIds.get(sql);
    if (s === undefined) this.statementIds.set(sql, (s = this.statementIds.size));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.queue.push({ id, s, sql, args, all, expand, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const items = this.queue;
    this.queue = [];
    if (items.length === 0) return;
    const introduced: number[] = [];
    try {
      const worker = this.ensureWorker();
      // A statement's text goes to a worker once; after that its number is enough.
      const batch = items.map(({ id, s, sql, args, all, expand }) => {
        if (this.sentToWorker.has(s)) return { id, s, args, all, expand };
        this.sentToWorker.add(s);
        introduced.push(s);
        return { id, s, sql, args, all, expand };
      });
      worker.postMessage(batch);
      for (const item of items) this.inFlight.set(item.id, item);
      worker.ref(); // while reads are out, the process waits for them
    } catch (err) {
      for (const s of introduced) this.sentToWorker.delete(s);
      this.rejectAll(items, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private rejectAll(items: Iterable<Item>, err: Error): void {
    for (const item of items) item.reject(err);
  }

  /** Forgets `worker` if it is the current one and rejects what was sent to it. */
  private stopped(worker: Worker | null, err: Error, failed = false): void {
    if (this.worker !== worker) return; // already replaced: nothing in flight was sent to it
    if (failed && !this.answered) this.startFailure = { err, at: Date.now() };
    this.worker = null;
    this.sentToWorker = new Set();
    this.rejectAll(this.inFlight.values(), err);
    this.inFlight.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (this.startFailure && Date.now() - this.startFailure.at < RESTART_PAUSE_MS) throw this.startFailure.err;
    const worker = new Worker(WORKER_FILE, { workerData: { file: this.file, sizes: this.sizes } });
    worker.on("message", (results: Result[]) => {
      this.answered = true;
      this.startFailure = null;
      for (const r of results) {
        const item = this.inFlight.get(r.id);
        if (!item) continue;
        this.inFlight.delete(r.id);
        if (r.error) item.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
        else item.resolve(r.value);
      }
      if (this.inFlight.size === 0) worker.unref();
    });
    worker.on("error", (err) => {
      logger.error({ err }, "SQLite read worker failed");
      this.stopped(worker, err, true);
    });
    worker.on("exit", (code) => this.stopped(worker, new Error(`SQLite read worker exited (code ${code})`), true));
    // After the listeners (a 'message' listener refs the port again): idle, it never keeps a process alive.
    worker.unref();
    this.worker = worker;
    this.answered = false;
    this.sentToWorker = new Set();
    return worker;
  }
}
