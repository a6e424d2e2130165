import "server-only";
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

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };
type Result = { id: number; value?: unknown; error?: { message: string; code?: string } };

/**
 * Read statements on a worker thread with its own connection (sqlite-reader.worker.mjs).
 *
 * Why: inside the server, a statement run on the main thread costs several times what it
 * costs in a tight loop, because the server's other work evicts SQLite's code and pages from
 * the CPU caches between two statements; and it holds the event loop meanwhile. On its own
 * thread SQLite stays warm, and the server used less CPU per proof bundle in all, not just
 * another core (measured: README, Performance). This is what an asynchronous database driver
 * does anyway; PostgreSQL runs in its own processes.
 *
 * Statements issued in the same turn of the event loop travel in one message. The worker
 * starts with the first read; if it stops, what was in flight is rejected and the next read
 * starts a new one.
 */
export class WorkerReads implements ReadExecutor {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly statementIds = new Map<string, number>();
  private sentToWorker = new Set<number>();
  private queue: { id: number; s: number; sql: string; args: unknown[]; all: boolean; expand: boolean }[] = [];
  private nextId = 0;
  private flushScheduled = false;

  constructor(private readonly file: string) {}

  get(sql: string, args: unknown[], opts: { expand?: boolean } = {}): Promise<unknown> {
    return this.send(sql, args, false, opts.expand ?? false);
  }

  all(sql: string, args: unknown[]): Promise<unknown[]> {
    return this.send(sql, args, true, false) as Promise<unknown[]>;
  }

  /** Stops the worker; reads still queued or in flight are rejected. A later read starts a new one. */
  async close(): Promise<void> {
    const w = this.worker;
    this.stopped(w, new Error("SQLite read worker closed"));
    this.queue = [];
    if (w) await w.terminate();
  }

  private send(sql: string, args: unknown[], all: boolean, expand: boolean): Promise<unknown> {
    let s = this.statementIds.get(sql);
    if (s === undefined) this.statementIds.set(sql, (s = this.statementIds.size));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.queue.push({ id, s, sql, args, all, expand });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0) return;
    const worker = this.ensureWorker();
    // A statement's text goes to a worker once; after that its number is enough.
    const batch = this.queue.map(({ sql, ...item }) => {
      if (this.sentToWorker.has(item.s)) return item;
      this.sentToWorker.add(item.s);
      return { ...item, sql };
    });
    this.queue = [];
    worker.postMessage(batch);
  }

  /** Forgets `worker` if it is the current one and rejects everything sent to it. */
  private stopped(worker: Worker | null, err: Error): void {
    if (this.worker !== worker) return; // a worker already replaced: nothing of ours was sent to it
    this.worker = null;
    this.sentToWorker = new Set();
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_FILE, { workerData: { file: this.file } });
    worker.unref(); // never what keeps a process alive
    worker.on("message", (results: Result[]) => {
      for (const r of results) {
        const p = this.pending.get(r.id);
        if (!p) continue;
        this.pending.delete(r.id);
        if (r.error) p.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
        else p.resolve(r.value);
      }
    });
    worker.on("error", (err) => {
      console.error("[hallmark] SQLite read worker failed:", err);
      this.stopped(worker, err);
    });
    worker.on("exit", (code) => this.stopped(worker, new Error(`SQLite read worker exited (code ${code})`)));
    this.worker = worker;
    this.sentToWorker = new Set();
    return worker;
  }
}
