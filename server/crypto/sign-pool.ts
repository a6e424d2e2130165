import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import type { KeyObject } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { signEd25519 } from "./key-custody";
import { type AttestRequest, type Attested, attest } from "./attestation-bytes.mjs";

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

type Pending = { resolve: (answer: Answer) => void; reject: (err: Error) => void };
type Answer = { signatures?: Uint8Array; attested?: Attested; error?: string };

/** One worker and what was sent to it. */
class Slot {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  async sign(jobs: SignJob[]): Promise<Uint8Array> {
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
    const answer = await this.request({ keys: [...keys], kids: jobs.map((j) => j.kid), data, ends }, [data.buffer]);
    if (!answer.signatures) throw new Error("the signing worker answered no signatures");
    return answer.signatures;
  }

  async attest(keys: [string, KeyObject][], req: AttestRequest): Promise<Attested> {
    const answer = await this.request({ keys, attest: req }, []);
    if (!answer.attested) throw new Error("the signing worker answered no attestations");
    return answer.attested;
  }

  private request(message: object, transfer: ArrayBuffer[]): Promise<Answer> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...message }, transfer);
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
    worker.on("message", (m: Answer & { id: number }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error === undefined) p.resolve(m);
      else p.reject(new Error(m.error));
      if (this.pending.size === 0) worker.unref();
    });
    worker.on("error", (err) => this.stopped(worker, err));
    // An answer that could not be read is lost: fail what is out (its callers sign on this
    // thread instead) rather than leave it waiting, and start over with a new worker.
    worker.on("messageerror", (err) => {
      this.stopped(worker, err);
      void worker.terminate();
    });
    worker.on("exit", (code) => this.stopped(worker, new Error(`signing worker exited (code ${code})`)));
    // Idle, it never keeps a process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * Ed25519 signing on worker threads, one per core but the one the server's event loop runs on
 * (at least one): a batch of 1,000 signatures, long enough to hold up every other request on one
 * thread (docs/performance.md, "Bulk attestation"), is split across them and the event loop goes
 * on serving meanwhile. Signatures are deterministic (RFC 8032), so where
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

  async attestAll(jobs: AttestJob[]): Promise<Attested> {
    const per = Math.max(MIN_POOLED, Math.ceil(jobs.length / this.slots.length));
    const chunks: Promise<Attested>[] = [];
    for (let i = 0; i < jobs.length; i += per) {
      const { keys, req } = requestOf(jobs.slice(i, i + per));
      chunks.push(this.slots[this.next++ % this.slots.length]!.attest(keys, req));
    }
    return joinAttested(await Promise.all(chunks));
  }
}

/** An attestation to compose, sign and hash (attestation-bytes.mjs, attest). */
export interface AttestJob {
  id: string;
  issuerId: string;
  kid: string;
  privateKey: KeyObject;
  /** RFC 3339, as signed. */
  createdAt: string;
  payloadJcs: string;
}

/** `values` joined, and where each ends. */
function joined(values: string[]): { text: string; ends: Uint32Array } {
  const ends = new Uint32Array(values.length);
  let at = 0;
  for (let i = 0; i < values.length; i++) ends[i] = at += values[i]!.length;
  return { text: values.join(""), ends };
}

/** The keys and the AttestRequest for `jobs`. */
function requestOf(jobs: AttestJob[]): { keys: [string, KeyObject][]; req: AttestRequest } {
  const keys = new Map<string, KeyObject>();
  const signers: [string, string][] = [];
  const signerOf = new Uint32Array(jobs.length);
  let last = -1;
  jobs.forEach((j, i) => {
    const known = signers[last];
    if (!known || known[0] !== j.issuerId || known[1] !== j.kid) {
      last = signers.findIndex(([issuer, kid]) => issuer === j.issuerId && kid === j.kid);
      if (last < 0) last = signers.push([j.issuerId, j.kid]) - 1;
      keys.set(j.kid, j.privateKey);
    }
    signerOf[i] = last;
  });
  const ids = joined(jobs.map((j) => j.id));
  const createdAts = joined(jobs.map((j) => j.createdAt));
  const payloads = joined(jobs.map((j) => j.payloadJcs));
  return {
    keys: [...keys],
    req: {
      signers,
      signerOf,
      ids: ids.text,
      idEnds: ids.ends,
      createdAts: createdAts.text,
      createdAtEnds: createdAts.ends,
      payloads: payloads.text,
      payloadEnds: payloads.ends,
    },
  };
}

function joinAttested(parts: Attested[]): Attested {
  if (parts.length === 1) return parts[0]!;
  const concat = <T extends Uint8Array | Uint32Array>(arrays: T[], make: (n: number) => T): T => {
    const out = make(arrays.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of arrays) {
      out.set(a, at);
      at += a.length;
    }
    return out;
  };
  return {
    signatures: parts.map((p) => p.signatures).join(""),
    leafHashes: concat(
      parts.map((p) => p.leafHashes),
      (n) => new Uint8Array(n),
    ),
    leafSizes: concat(
      parts.map((p) => p.leafSizes),
      (n) => new Uint32Array(n),
    ),
  };
}

/**
 * The signature of each job's message, in order. Many messages go to the worker pool; a few,
 * or any the pool fails to sign (a worker that cannot start or died), are signed here.
 */
export async function signAll(jobs: SignJob[]): Promise<Uint8Array[]> {
  if (jobs.length >= MIN_POOLED) {
    try {
      return await pool().signAll(jobs);
    } catch (err) {
      logger.error({ err }, "the signing workers failed; signing on the main thread");
    }
  }
  return jobs.map((j) => signEd25519(j.privateKey, j.message));
}

const pool = () => processWide("sign-pool", () => new SignPool(Math.max(1, Math.min(4, os.availableParallelism() - 1))));

/**
 * Each job composed, signed and its leaf hashed: its signature is
 * `signatures.slice(SIGNATURE_CHARS * i, SIGNATURE_CHARS * (i + 1))`, its leaf hash
 * `leafHashes.subarray(32 * i, 32 * (i + 1))`. Many go to the worker pool, where the garbage
 * composing them makes is cheap to collect; a few, or any the pool fails on, are made here by
 * the same code.
 */
export async function attestAll(jobs: AttestJob[]): Promise<Attested> {
  if (jobs.length >= MIN_POOLED) {
    try {
      return await pool().attestAll(jobs);
    } catch (err) {
      logger.error({ err }, "the signing workers failed; signing on the main thread");
    }
  }
  const { keys, req } = requestOf(jobs);
  const byKid = new Map(keys);
  return attest(req, (kid) => byKid.get(kid)!);
}
