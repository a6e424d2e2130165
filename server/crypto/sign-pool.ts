import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import type { KeyObject } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { signEd25519 } from "./key-custody";

// Next.js's build recognises this path and bundles the worker as its own entry; tsx and Vitest
// run the file itself.
const WORKER_FILE = path.join(process.cwd(), "server/crypto/sign.worker.mjs");

export interface SignJob {
  kid: string;
  privateKey: KeyObject;
  message: Uint8Array;
}

/** Fewer messages than this are signed on the calling thread: a round trip would cost more. */
const MIN_POOLED = 64;

type Pending = { resolve: (sigs: Uint8Array) => void; reject: (err: Error) => void };

/** One worker and what was sent to it. */
class Slot {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  sign(jobs: SignJob[]): Promise<Uint8Array> {
    const keys = new Map<string, KeyObject>();
    const ends: number[] = [];
    let total = 0;
    for (const j of jobs) {
      keys.set(j.kid, j.privateKey);
      total += j.message.length;
      ends.push(total);
    }
    const data = new Uint8Array(total);
    let at = 0;
    for (const j of jobs) {
      data.set(j.message, at);
      at += j.message.length;
    }
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, keys: [...keys], kids: jobs.map((j) => j.kid), data, ends }, [data.buffer]);
    });
  }

  private stopped(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_FILE);
    worker.on("message", (m: { id: number; signatures?: Uint8Array; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.signatures) p.resolve(m.signatures);
      else p.reject(new Error(m.error ?? "the signing worker failed"));
      if (this.pending.size === 0) worker.unref();
    });
    worker.on("error", (err) => this.stopped(worker, err));
    worker.on("exit", (code) => this.stopped(worker, new Error(`signing worker exited (code ${code})`)));
    // Idle, it never keeps a process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * Ed25519 signing on worker threads, one per core but the one the server's event loop runs on
 * (at least one): a batch of 1,000 signatures (about 30 ms of work) is split across them and
 * the event loop goes on serving meanwhile. Signatures are deterministic (RFC 8032), so where
 * they are made changes nothing in them.
 */
class SignPool {
  private readonly slots: Slot[];
  private next = 0;

  constructor(size: number) {
    this.slots = Array.from({ length: size }, () => new Slot());
  }

  async signAll(jobs: SignJob[]): Promise<Uint8Array[]> {
    const per = Math.max(MIN_POOLED, Math.ceil(jobs.length / this.slots.length));
    const chunks: SignJob[][] = [];
    for (let i = 0; i < jobs.length; i += per) chunks.push(jobs.slice(i, i + per));
    const signed = await Promise.all(chunks.map((c) => this.slots[this.next++ % this.slots.length]!.sign(c)));
    return signed.flatMap((sigs) => Array.from({ length: sigs.length / 64 }, (_, i) => sigs.subarray(64 * i, 64 * i + 64)));
  }
}

/**
 * The signature of each job's message, in order. Many messages go to the worker pool; a few,
 * or any the pool fails to sign (a worker that cannot start or died), are signed here.
 */
export async function signAll(jobs: SignJob[]): Promise<Uint8Array[]> {
  if (jobs.length >= MIN_POOLED) {
    const pool = processWide("sign-pool", () => new SignPool(Math.max(1, Math.min(4, os.availableParallelism() - 1))));
    try {
      return await pool.signAll(jobs);
    } catch (err) {
      logger.error({ err }, "the signing workers failed; signing on the main thread");
    }
  }
  return jobs.map((j) => signEd25519(j.privateKey, j.message));
}
