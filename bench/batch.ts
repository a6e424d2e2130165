// Bulk attestation: POST /v1/attestations/batch with batches of 1,000 items against one server
// on SQLite, beside the physical limit of the work measured in the same run: node:crypto
// Ed25519 signing alone, on one core, of messages of the same shape. Every acknowledged item
// must be in the log afterwards.
import { generateKeyPairSync, randomBytes, randomUUID, sign } from "node:crypto";
import Database from "better-sqlite3";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { cpuSeconds, threadCpuSeconds } from "./cpu";
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
  /** The same for the event loop's thread, and for each other thread that used any, most first (signing and SQLite workers, V8's helpers). */
  threadCpuPerItem: { eventLoop: number; others: number[] };
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
 * One POST on a kept-alive connection of `agent`, its answer's bytes as they came. node:http, not
 * fetch: on a machine the server shares, fetch's streams cost the load generator several times
 * the CPU per request, which the server would not get.
 */
function post(url: URL, agent: http.Agent, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * `clients` loops each sending batches of 1,000 for `seconds`; only answers that arrive in time
 * count. The load generator shares the machine with the server, so it does no more than a
 * client must while the clock runs: bodies are encoded before it starts, each client keeps one
 * connection, and the answers' ids are read after it stops.
 */
export async function batchLoad(
  server: Server,
  creds: { api_key: string; issuer_id: string },
  clients: number,
  seconds: number,
): Promise<BatchRun> {
  const headers = { "content-type": "application/json", "x-api-key": creds.api_key };
  const url = new URL(`${server.url}/v1/attestations/batch`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const bodies = Array.from({ length: BODIES }, () => Buffer.from(bodyOf(creds.issuer_id)));
  const latencies: number[] = [];
  const answers: Buffer[] = [];
  let errors = 0;
  let sent = 0;
  const cpuBefore = cpuSeconds(server.pid);
  const threadsBefore = threadCpuSeconds(server.pid);
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const body = bodies[sent++ % BODIES]!;
        const t0 = performance.now();
        const res = await post(url, agent, headers, body);
        const t1 = performance.now();
        if (res.status !== 201) {
          errors++;
          continue;
        }
        answers.push(res.body);
        if (t1 <= end) latencies.push(t1 - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const threads = [...threadCpuSeconds(server.pid)].map(([tid, s]) => [tid, s - (threadsBefore.get(tid) ?? 0)] as const);
  agent.destroy();
  const acked = answers.flatMap((bytes) =>
    (JSON.parse(bytes.toString("utf8")) as { attestations: { id: string }[] }).attestations.map((a) => a.id),
  );
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    itemsPerSecond: acked.length / elapsed,
    serverCpuPerItem: (cpu / acked.length) * 1e6,
    threadCpuPerItem: {
      eventLoop: ((threads.find(([tid]) => tid === server.pid)?.[1] ?? 0) / acked.length) * 1e6,
      others: threads
        .filter(([tid, s]) => tid !== server.pid && s > 0)
        .map(([, s]) => (s / acked.length) * 1e6)
        .sort((a, b) => b - a),
    },
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
