// Bulk attestation: POST /v1/attestations/batch with batches of 1,000 items against one server
// on SQLite, beside the physical limit of the work measured in the same run: node:crypto
// Ed25519 signing alone, on one core, of messages of the same shape. Every acknowledged item
// must be in the log afterwards.
import { generateKeyPairSync, randomBytes, randomUUID, sign } from "node:crypto";
import Database from "better-sqlite3";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { cpuSeconds } from "./cpu";
import type { Server } from "./server";

const BATCH = 1000;

/** Signatures per second that node:crypto makes on this thread over `seconds`, of ~250-byte DSSE messages. */
export function signingLimit(seconds: number): number {
  const { privateKey } = generateKeyPairSync("ed25519");
  const payload = JSON.stringify({ content_hash: randomBytes(32).toString("hex"), n: 1, title: "bench" });
  const body = `{"created_at":"${new Date().toISOString()}","id":"${randomUUID()}","issuer_id":"${randomUUID()}","kid":"${"k".repeat(43)}","payload":${payload}}`;
  const message = Buffer.from(`DSSEv1 30 application/vnd.hallmark.attestation+json ${body.length} ${body}`);
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 200; i++) sign(null, message, privateKey);
    n += 200;
  }
  return n / ((performance.now() - start) / 1000);
}

export interface BatchRun {
  itemsPerSecond: number;
  /** The server's CPU time (all threads) per attestation answered in the run, in µs. */
  serverCpuPerItem: number;
  batches: number;
  p50: number;
  p99: number;
  errors: number;
  acked: string[];
}

function bodyOf(issuerId: string): string {
  const items = Array.from({ length: BATCH }, (_, n) => ({
    issuer_id: issuerId,
    payload: { content_hash: randomBytes(32).toString("hex"), n, title: "bench" },
  }));
  return JSON.stringify({ items });
}

/** Distinct bodies a run cycles through: made before the clock starts, as wrk's requests are. */
const BODIES = 32;

/**
 * `clients` loops each sending batches of 1,000 for `seconds`; only answers that arrive in time
 * count. The load generator shares the machine with the server, so it does no more than a
 * client must while the clock runs: bodies are made before it starts, and the answers' ids are
 * read after it stops.
 */
export async function batchLoad(
  server: Server,
  creds: { api_key: string; issuer_id: string },
  clients: number,
  seconds: number,
): Promise<BatchRun> {
  const headers = { "content-type": "application/json", "x-api-key": creds.api_key };
  const bodies = Array.from({ length: BODIES }, () => bodyOf(creds.issuer_id));
  const latencies: number[] = [];
  const answers: string[] = [];
  let errors = 0;
  let sent = 0;
  const cpuBefore = cpuSeconds(server.pid);
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const body = bodies[sent++ % BODIES]!;
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/attestations/batch`, { method: "POST", headers, body });
        const text = await res.text();
        const t1 = performance.now();
        if (res.status !== 201) {
          errors++;
          continue;
        }
        answers.push(text);
        if (t1 <= end) latencies.push(t1 - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const acked = answers.flatMap((text) => (JSON.parse(text) as { attestations: { id: string }[] }).attestations.map((a) => a.id));
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    itemsPerSecond: acked.length / elapsed,
    serverCpuPerItem: (cpu / acked.length) * 1e6,
    batches: latencies.length,
    p50: q(0.5),
    p99: q(0.99),
    errors,
    acked,
  };
}

/** How many of `ids` have no row in the SQLite log of `dir`. */
export function missingFrom(dir: string, ids: string[]): number {
  const db = new Database(path.join(dir, "hallmark.db"), { readonly: true });
  const find = db.prepare("SELECT 1 FROM attestations WHERE id = ?");
  const missing = ids.filter((id) => find.get(id) === undefined).length;
  db.close();
  return missing;
}
