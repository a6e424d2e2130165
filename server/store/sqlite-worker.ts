import "server-only";
import type { SqliteSizes } from "../sqlite-pragmas.mjs";
import { logger } from "../observability/logger.mjs";
import path from "node:path";
import { Worker } from "node:worker_threads";

// Next.js's build recognises this path and bundles the worker as its own entry; tsx and Vitest
// run the file itself.
const WORKER_FILE = path.join(process.cwd(), "server/store/sqlite.worker.mjs");

/** What an op does (sqlite.worker.mjs). */
export type Mode = "get" | "all" | "run" | "each" | "begin" | "commit" | "rollback";

/** A statement to run, and its arguments (`rows`: one set per run, for "each"). */
export interface Op {
  sql?: string;
  mode: Mode;
  args?: unknown[];
  rows?: unknown[][];
  expand?: boolean;
}

/** An op, and where its answer goes (none: nobody waits for it; a failure fails its transaction). */
export interface Sent extends Op {
  resolve?: (value: unknown) => void;
  reject?: (err: Error) => void;
}

type Result = { id: number; value?: unknown; error?: { message: string; code?: string } };
type Waiting = Required<Pick<Sent, "resolve" | "reject">>;

/** After a worker fails before answering anything, ops fail fast for this long instead of starting another. */
const RESTART_PAUSE_MS = 1000;

/**
 * A SQLite connection on its own thread (sqlite.worker.mjs), in the role given: "read" or
 * "write". The worker starts with the first op; if it stops, what was in flight is rejected
 * and the next op starts a new one. A statement's text travels once per worker, then its number.
 * While ops are out the worker keeps the process alive; idle, it never does.
 */
export class SqliteWorker {
  private worker: Worker | null = null;
  private answered = false;
  private startFailure: { err: Error; at: number } | null = null;
  private readonly statementIds = new Map<string, number>();
  private sentToWorker = new Set<number>();
  private readonly inFlight = new Map<number, Waiting>();
  private nextId = 0;

  /** sizes: the worker connection's page cache and map (HALLMARK_SQLITE_CACHE_MB, HALLMARK_SQLITE_MMAP_MB). */
  constructor(
    private readonly file: string,
    private readonly sizes: SqliteSizes,
    private readonly role: "read" | "write",
  ) {}

  /**
   * Posts `ops` in one message, in order. If it cannot (no worker starts, an argument that cannot
   * be copied), none of them is sent and each waiting op is rejected.
   */
  post(ops: Sent[]): void {
    if (ops.length === 0) return;
    const introduced: number[] = [];
    const waiting: [number, Waiting][] = [];
    try {
      const worker = this.ensureWorker();
      const message = ops.map(({ sql, mode, args, rows, expand, resolve, reject }) => {
        let id = 0;
        if (resolve && reject) waiting.push([(id = ++this.nextId), { resolve, reject }]);
        if (sql === undefined) return { id, s: 0, mode };
        let s = this.statementIds.get(sql);
        if (s === undefined) this.statementIds.set(sql, (s = this.statementIds.size));
        // A statement's text goes to a worker once; after that its number is enough.
        if (this.sentToWorker.has(s)) return { id, s, mode, args, rows, expand };
        this.sentToWorker.add(s);
        introduced.push(s);
        return { id, s, sql, mode, args, rows, expand };
      });
      worker.postMessage(message);
      // Waited for only once sent: a message that could not be sent leaves nothing in flight.
      for (const [id, w] of waiting) this.inFlight.set(id, w);
      worker.ref(); // while ops are out, the process waits for them
    } catch (err) {
      for (const s of introduced) this.sentToWorker.delete(s);
      const e = err instanceof Error ? err : new Error(String(err));
      for (const op of ops) op.reject?.(e);
    }
  }

  /** Stops the worker; ops in flight are rejected. A later op starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.stopped(worker, new Error(`SQLite ${this.role} worker closed`));
    if (worker) await worker.terminate();
  }

  /** Forgets `worker` if it is the current one and rejects what was sent to it. */
  private stopped(worker: Worker | null, err: Error, failed = false): void {
    if (this.worker !== worker) return; // already replaced: nothing in flight was sent to it
    if (failed && !this.answered) this.startFailure = { err, at: Date.now() };
    this.worker = null;
    this.sentToWorker = new Set();
    for (const w of this.inFlight.values()) w.reject(err);
    this.inFlight.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (this.startFailure && Date.now() - this.startFailure.at < RESTART_PAUSE_MS) throw this.startFailure.err;
    const worker = new Worker(WORKER_FILE, { workerData: { file: this.file, sizes: this.sizes, role: this.role } });
    worker.on("message", (results: Result[]) => {
      this.answered = true;
      this.startFailure = null;
      for (const r of results) {
        const waiting = this.inFlight.get(r.id);
        if (!waiting) continue;
        this.inFlight.delete(r.id);
        if (r.error) waiting.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
        else waiting.resolve(r.value);
      }
      if (this.inFlight.size === 0) worker.unref();
    });
    worker.on("error", (err) => {
      logger.error({ err }, `SQLite ${this.role} worker failed`);
      this.stopped(worker, err, true);
    });
    worker.on("exit", (code) => this.stopped(worker, new Error(`SQLite ${this.role} worker exited (code ${code})`), true));
    // After the listeners (a 'message' listener refs the port again): idle, it never keeps a process alive.
    worker.unref();
    this.worker = worker;
    this.answered = false;
    this.sentToWorker = new Set();
    return worker;
  }
}
