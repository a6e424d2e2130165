// `npm run bench -- --only memory [--minutes 10] [--env "K=V …"] [--node-args=FLAGS]`: does the server's resident
// memory stay flat under a long mixed load? One production server (scripts/serve.mjs) on a fresh
// SQLite log takes writes (attestations, mints with fresh Idempotency-Keys, batches of 100), reads
// (proof bundles, lookups, verify pages, the checkpoint and tiles) and hostile traffic (unknown
// paths with random ids, bad JSON, wrong API keys, oversized bodies, random X-Request-Ids and
// query strings: a cache keyed by what an attacker chooses is the classic leak) for N minutes.
// Every 10 s it samples the server's RSS (/proc/<pid>/status) and its V8 heap and external
// memory (/metrics); it prints the table, the slope of RSS and heap over the last half and the
// maxima. Heap snapshots (--heapsnapshot-signal=SIGUSR2; V8 collects garbage before writing one)
// are taken at the end, once the load has stopped, to show the live heap; with --heap-diff one
// is taken under load after the first minute too and the two are compared by bench/heap-diff.ts
// (that early snapshot leaves the process a lasting share of RSS in glibc's main arena, so the
// RSS verdict comes from a run without it; docs/performance.md, Memory). With --env "K=V …" (e.g. MALLOC_ARENA_MAX=2, or
// LD_PRELOAD of another allocator) and/or --node-args="FLAGS", a second server with that
// environment and those node flags takes the same load beside the first, in the same minutes, so
// their RSS compares on the same machine.
// Memory, not speed, is measured: it holds on a machine whose cores are shared.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { migrate, type Server, startServer } from "./server";

type Creds = { api_key: string; issuer_id: string; consumer_key: string; sample_ids: string[] };
interface Deps {
  seed(dir: string, leaves: number): Creds;
}
export interface MemoryOptions {
  minutes: number;
  /** Environment of a second server under the same load, or none. */
  env?: Record<string, string>;
  /** Node flags of a second server under the same load, or none. */
  nodeArgs?: string[];
  /** Take a heap snapshot under load after the warm-up too, and diff it with the end's. */
  heapDiff?: boolean;
  /** Clients per server. */
  connections?: number;
  /** Seconds between samples. */
  every?: number;
  /** Seconds of load before the early heap snapshot. */
  warmup?: number;
}

const MB = 1024 * 1024;
const SNAPSHOT_DIR = path.resolve("bench/.cache/memory");

interface Sample {
  t: number;
  rss: number;
  rssAnon: number;
  threads: number;
  /** Resident anonymous memory by kind, from /proc/<pid>/smaps. */
  v8Pages: number;
  mainArena: number;
  threadArenas: number;
  otherAnon: number;
  /** Resident pages of the SQLite database file, mapped by its mmap (file-backed: the kernel reclaims them). */
  dbFile: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Bytes in the size-bounded caches (tiles, gzip), from /metrics. */
  caches: number;
  /** Entries in the tree-node cache (at most 250,000; it grows with the log), from /metrics. */
  treeNodes: number;
  requests: number;
  note: string;
}

function procStatus(pid: number): { rss: number; rssAnon: number; threads: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kib("VmRSS"), rssAnon: kib("RssAnon"), threads: Number(/Threads:\s+(\d+)/.exec(s)?.[1] ?? 0) };
}

/**
 * The resident anonymous memory by what holds it, from the mappings' shapes: V8 heap pages are
 * 256 KiB mappings (every isolate's: the main thread's and the workers'); glibc's main malloc
 * arena is [heap]; each other arena is a 64 MiB-aligned read-write mapping followed by the
 * reserved rest of its 64 MiB; the rest (V8's large objects and code, big malloc blocks,
 * thread stacks) is other. Apart from these, dbFile: the resident pages of the SQLite database
 * file (`*.db`), which SQLite maps with its mmap (file-backed, not anonymous).
 */
export function smapsOf(pid: number): { v8Pages: number; mainArena: number; threadArenas: number; otherAnon: number; dbFile: number } {
  const out = { v8Pages: 0, mainArena: 0, threadArenas: 0, otherAnon: 0, dbFile: 0 };
  const regions: { start: number; end: number; perm: string; name: string; anon: number; rss: number }[] = [];
  const kib = (line: string) => Number(/(\d+)/.exec(line)![1]) * 1024;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m)
      regions.push({
        start: Number.parseInt(m[1]!, 16),
        end: Number.parseInt(m[2]!, 16),
        perm: m[3]!,
        name: m[4]!.trim(),
        anon: 0,
        rss: 0,
      });
    else if (line.startsWith("Anonymous:") && regions.length > 0) regions[regions.length - 1]!.anon += kib(line);
    else if (line.startsWith("Rss:") && regions.length > 0) regions[regions.length - 1]!.rss += kib(line);
  }
  for (const r of regions) if (r.name.endsWith(".db")) out.dbFile += r.rss;
  const ARENA = 64 * MB;
  regions.forEach((r, i) => {
    if (r.anon === 0) return;
    const next = regions[i + 1];
    if (r.name === "[heap]") out.mainArena += r.anon;
    else if (r.name.startsWith("[")) out.otherAnon += r.anon;
    else if (
      r.start % ARENA === 0 &&
      (r.end - r.start === ARENA || (next && next.start === r.end && next.perm.startsWith("---") && next.end - r.start === ARENA))
    )
      out.threadArenas += r.anon;
    else if (r.end - r.start === 256 * 1024) out.v8Pages += r.anon;
    else out.otherAnon += r.anon;
  });
  return out;
}

async function metricsOf(url: string, token: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m =
      /^(nodejs_heap_size_used_bytes|nodejs_heap_size_total_bytes|nodejs_external_memory_bytes|process_resident_memory_bytes) ([\d.e+]+)/.exec(
        line,
      );
    if (m) out[m[1]!] = Number(m[2]);
    const c = /^hallmark_cache_bytes\{cache="(\w+)"\} ([\d.e+]+)/.exec(line);
    if (c) out.caches = (out.caches ?? 0) + Number(c[2]);
    const n = /^hallmark_cache_entries\{cache="tree_nodes"\} ([\d.e+]+)/.exec(line);
    if (n) out.treeNodes = Number(n[1]);
  }
  return out;
}

/** Least-squares slope of y over t (minutes), in MB/min. */
function slope(points: { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : num / den / MB;
}

interface Answer {
  status: number;
  body: string;
}

/** One HTTP request on a keep-alive agent; the body is kept only when asked for. */
function send(
  agent: http.Agent,
  base: URL,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  keep = false,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({ agent, host: base.hostname, port: base.port, method, path: urlPath, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => keep && chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: keep ? Buffer.concat(chunks).toString("utf8") : "" }));
      res.on("error", () => resolve({ status: 0, body: "" }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.on("timeout", () => req.destroy());
    req.end(body);
  });
}

const hex = (n: number) => randomBytes(n).toString("hex");
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
/** A random query string: attacker-chosen names and values. */
const randomQuery = () => (Math.random() < 0.5 ? `?${hex(4)}=${hex(8)}&utm_${hex(3)}=${hex(12)}` : "");
/** X-Request-Id: mostly a fresh plain token (kept by the server), sometimes one it must replace. */
function requestIdHeader(): Record<string, string> {
  const r = Math.random();
  if (r < 0.5) return { "x-request-id": `${hex(8)}-${randomUUID()}` };
  if (r < 0.6) return { "x-request-id": `bad id ${hex(40)} <>` };
  return {};
}

/** The mixed load against one server: writes, reads and hostile requests in fixed proportions. */
export class MixedLoad {
  readonly counts = new Map<string, Map<string, number>>();
  total = 0;
  private readonly agent: http.Agent;
  private readonly base: URL;
  private readonly ids: string[];
  private readonly protections: string[] = [];
  private readonly hashes: string[] = [];
  private treeSize = 1;
  private stopping = false;

  constructor(
    server: Server,
    private readonly creds: Creds,
    private readonly connections: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    this.base = new URL(server.url);
    this.ids = [...creds.sample_ids];
  }

  private count(kind: string, status: number) {
    this.total++;
    const cls = status === 0 ? "err" : `${Math.floor(status / 100)}xx`;
    let m = this.counts.get(kind);
    if (!m) this.counts.set(kind, (m = new Map()));
    m.set(cls, (m.get(cls) ?? 0) + 1);
  }

  private keep<T>(xs: T[], x: T, cap = 20_000) {
    if (xs.length < cap) xs.push(x);
    else xs[Math.floor(Math.random() * cap)] = x;
  }

  /** One request of the mix; weights in per mille. */
  private async one(): Promise<void> {
    const r = Math.random() * 1000;
    const json = { "content-type": "application/json", ...requestIdHeader() };
    const get = (kind: string, p: string, headers: Record<string, string> = {}) =>
      send(this.agent, this.base, "GET", p + randomQuery(), { ...requestIdHeader(), ...headers }).then((a) => this.count(kind, a.status));
    if (r < 150) {
      const a = await send(
        this.agent,
        this.base,
        "POST",
        "/v1/attestations",
        { ...json, "x-api-key": this.creds.api_key },
        JSON.stringify({ issuer_id: this.creds.issuer_id, payload: { content_hash: hex(32), title: `memory ${hex(4)}` } }),
        true,
      );
      this.count("POST /v1/attestations", a.status);
      if (a.status === 201) this.keep(this.ids, (JSON.parse(a.body) as { id: string }).id);
    } else if (r < 250) {
      const hash = hex(32);
      const a = await send(
        this.agent,
        this.base,
        "POST",
        "/v1/consumer/mint",
        { ...json, "x-api-key": this.creds.consumer_key, "idempotency-key": randomUUID() },
        JSON.stringify({ content_hash: hash, title: `memory ${hex(4)}`, file_name: "m.png", category: "media", visibility: "public" }),
        true,
      );
      this.count("POST /v1/consumer/mint", a.status);
      if (a.status === 201) {
        const b = JSON.parse(a.body) as { protection_id: string; attestation_id: string };
        this.keep(this.protections, b.protection_id);
        this.keep(this.hashes, hash);
        this.keep(this.ids, b.attestation_id);
      }
    } else if (r < 270) {
      const items = Array.from({ length: 100 }, (_, n) => ({ issuer_id: this.creds.issuer_id, payload: { content_hash: hex(32), n } }));
      const a = await send(
        this.agent,
        this.base,
        "POST",
        "/v1/attestations/batch",
        { ...json, "x-api-key": this.creds.api_key, ...(Math.random() < 0.5 ? { "idempotency-key": randomUUID() } : {}) },
        JSON.stringify({ items }),
      );
      this.count("POST /v1/attestations/batch (100)", a.status);
    } else if (r < 420) {
      await get("GET proof-bundle", `/v1/attestations/${pick(this.ids)}/proof-bundle`, { "x-api-key": this.creds.api_key });
    } else if (r < 490) {
      // A protected hash, or one nobody protected; with the consumer key (the per-address budget
      // would refuse most of a load from one address), sometimes without (429s).
      const hash = this.hashes.length > 0 && Math.random() < 0.6 ? pick(this.hashes) : hex(32);
      await get("GET /v1/lookup", `/v1/lookup?content_hash=${hash}`, Math.random() < 0.9 ? { "x-api-key": this.creds.consumer_key } : {});
    } else if (r < 560) {
      const id = this.protections.length > 0 && Math.random() < 0.8 ? pick(this.protections) : randomUUID();
      await get("GET /verify/<id>", `/verify/${id}`);
    } else if (r < 600) {
      const a = await send(this.agent, this.base, "GET", "/v1/log/checkpoint", requestIdHeader(), undefined, true);
      this.count("GET /v1/log/checkpoint", a.status);
      const size = Number(a.body.split("\n")[1]);
      if (Number.isSafeInteger(size) && size > 0) this.treeSize = size;
    } else if (r < 650) {
      // A tile of the tree as it is: full, or partial of any width (each an entry of the tile cache).
      const entries = Math.random() < 0.3;
      const n = Math.floor(Math.random() * Math.max(1, Math.floor(this.treeSize / 256)));
      const full = (n + 1) * 256 <= this.treeSize && Math.random() < 0.5;
      const width = full ? 256 : 1 + Math.floor(Math.random() * Math.max(1, Math.min(255, this.treeSize - n * 256)));
      const idx = String(n).padStart(3, "0");
      const tile = full ? idx : `${idx}.p/${width}`;
      await get("GET tiles", `/v1/log/tile/${entries ? "entries" : "0"}/${tile}`, { "accept-encoding": "gzip" });
    } else {
      await this.hostile(json);
    }
  }

  /** Requests an attacker chooses: every varying part is random. */
  private async hostile(json: Record<string, string>): Promise<void> {
    const r = Math.random() * 350;
    const get = (p: string, headers: Record<string, string> = {}) =>
      send(this.agent, this.base, "GET", p + randomQuery(), { ...requestIdHeader(), ...headers }).then((a) =>
        this.count("hostile: unknown paths", a.status),
      );
    if (r < 100) {
      const paths = [
        `/v1/${hex(6)}/${randomUUID()}`,
        `/${hex(8)}/${hex(16)}`,
        `/v1/attestations/${randomUUID()}/proof-bundle`,
        `/v1/protections/${randomUUID()}/badge.svg`,
        `/v1/log/keys/${hex(16)}`,
        `/v1/log/tile/0/x${hex(3)}`,
        `/share/${randomUUID()}`,
        `/_next/static/${hex(10)}.js`,
        `/portfolio/${hex(12)}`,
      ];
      await get(pick(paths), Math.random() < 0.5 ? { "x-api-key": this.creds.api_key } : {});
    } else if (r < 170) {
      const a = await send(
        this.agent,
        this.base,
        "POST",
        pick(["/v1/attestations", "/v1/consumer/mint", "/v1/attestations/batch", "/v1/lookup"]),
        { ...json, "x-api-key": pick([this.creds.api_key, this.creds.consumer_key]) },
        pick([`{"issuer_id":"${hex(8)}",`, `{"${hex(6)}":${hex(3)}}`, `[${hex(20)}]`, `{"items":[{"a":${"[".repeat(50)}`, hex(200)]),
      );
      this.count("hostile: bad JSON", a.status);
    } else if (r < 260) {
      const key = `hm_live_${randomBytes(24).toString("base64url")}`;
      const a = await send(
        this.agent,
        this.base,
        Math.random() < 0.5 ? "GET" : "POST",
        pick(["/v1/attestations", `/v1/attestations/${pick(this.ids)}/proof-bundle`, "/v1/api-keys", "/v1/issuers"]),
        { ...json, "x-api-key": key },
        "{}",
      );
      this.count("hostile: wrong API keys", a.status);
    } else if (r < 275) {
      // Past the 256 KiB body limit (and, rarely, past the batch's 8 MiB).
      const size = Math.random() < 0.1 ? 9 * MB : 300 * 1024 + Math.floor(Math.random() * 100_000);
      const a = await send(
        this.agent,
        this.base,
        "POST",
        Math.random() < 0.5 ? "/v1/attestations" : "/v1/attestations/batch",
        { ...json, "x-api-key": this.creds.api_key },
        Buffer.alloc(size, 0x20),
      );
      this.count("hostile: oversized bodies", a.status);
    } else {
      // Headers the server keeps for a request's life: random ids, cookies, router state.
      const a = await send(this.agent, this.base, "GET", `/verify/${hex(8)}${randomQuery()}`, {
        "x-request-id": `${hex(20)}`,
        cookie: `next-auth.session-token=${hex(32)}; ${hex(4)}=${hex(8)}`,
        "next-router-state-tree": encodeURIComponent(`["",{"children":["${hex(6)}",{}]}]`),
        rsc: Math.random() < 0.5 ? "1" : "0",
      });
      this.count("hostile: odd headers", a.status);
    }
  }

  /** Runs `connections` client loops until stop(). */
  run(): Promise<void> {
    return Promise.all(
      Array.from({ length: this.connections }, async () => {
        while (!this.stopping) await this.one();
      }),
    ).then(() => undefined);
  }

  stop() {
    this.stopping = true;
  }

  close() {
    this.agent.destroy();
  }
}

/** Sends SIGUSR2 and waits until the snapshot it writes is complete; returns its path. */
async function snapshot(server: Server, dir: string, label: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir));
  const t0 = performance.now();
  process.kill(server.pid, "SIGUSR2");
  let file: string | undefined;
  for (let i = 0; i < 1200 && !file; i++) {
    await new Promise((r) => setTimeout(r, 250));
    file = fs.readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
  }
  if (!file) throw new Error("no heap snapshot was written");
  // The server answers again once its main thread has written the whole file.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5000) })).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  let size = -1;
  while (size !== fs.statSync(path.join(dir, file)).size) {
    size = fs.statSync(path.join(dir, file)).size;
    await new Promise((r) => setTimeout(r, 500));
  }
  const named = path.join(dir, `${label}.heapsnapshot`);
  fs.renameSync(path.join(dir, file), named);
  console.error(`heap snapshot ${named}: ${(size / MB).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return named;
}

interface Run {
  label: string;
  server: Server;
  dir: string;
  snapDir: string;
  token: string;
  load: MixedLoad;
  samples: Sample[];
  snapshots: string[];
}

async function sampleOf(run: Run, t: number, note: string): Promise<Sample> {
  const p = procStatus(run.server.pid);
  const m = await metricsOf(run.server.url, run.token).catch(() => ({}) as Record<string, number>);
  return {
    t,
    ...p,
    ...smapsOf(run.server.pid),
    heapUsed: m.nodejs_heap_size_used_bytes ?? Number.NaN,
    heapTotal: m.nodejs_heap_size_total_bytes ?? Number.NaN,
    external: m.nodejs_external_memory_bytes ?? Number.NaN,
    caches: m.caches ?? Number.NaN,
    treeNodes: m.treeNodes ?? Number.NaN,
    requests: run.load.total,
    note,
  };
}

function table(run: Run): string[] {
  const f = (b: number) => (b / MB).toFixed(0).padStart(6);
  const lines = [
    `${run.label}:  time    RSS   anon  db-file  v8-pages  [heap]  arenas  other  heap-used  heap-total  external  caches  tree-nodes  threads  requests (in the interval)   (MB)`,
  ];
  let last = 0;
  for (const s of run.samples) {
    lines.push(
      `${run.label}: ${`${(s.t / 60).toFixed(1)}m`.padStart(5)} ${f(s.rss)} ${f(s.rssAnon)}   ${f(s.dbFile)}    ${f(s.v8Pages)} ${f(s.mainArena)}  ${f(s.threadArenas)} ${f(s.otherAnon)}     ${f(s.heapUsed)}      ${f(s.heapTotal)}    ${f(s.external)}  ${f(s.caches)}  ${String(s.treeNodes).padStart(10)}  ${String(s.threads).padStart(7)}  ${String(s.requests).padStart(8)} (${s.requests - last})${s.note ? `  ${s.note}` : ""}`,
    );
    last = s.requests;
  }
  return lines;
}

function summary(run: Run, minutes: number): string[] {
  const during = run.samples.filter((s) => !s.note.startsWith("after"));
  const half = during.filter((s) => s.t >= (minutes * 60) / 2);
  const pts = (k: keyof Sample) => half.map((s) => ({ t: s.t / 60, y: s[k] as number }));
  const max = (k: keyof Sample) => Math.max(...during.map((s) => s[k] as number)) / MB;
  const first = during.find((s) => s.t > 0) ?? during[0]!;
  const end = during[during.length - 1]!;
  const lines = [
    `${run.label}: ${run.load.total} requests in ${minutes} min (${(run.load.total / (minutes * 60)).toFixed(0)}/s)`,
    `${run.label}: RSS ${(during[0]!.rss / MB).toFixed(0)} MB idle, ${(first.rss / MB).toFixed(0)} MB at ${(first.t / 60).toFixed(1)} min, ${(end.rss / MB).toFixed(0)} MB at the end, max ${max("rss").toFixed(0)} MB; slope over the last half ${slope(pts("rss")).toFixed(2)} MB/min`,
    `${run.label}: heap used ${(first.heapUsed / MB).toFixed(0)} MB at ${(first.t / 60).toFixed(1)} min, ${(end.heapUsed / MB).toFixed(0)} MB at the end, max ${max("heapUsed").toFixed(0)} MB; slope over the last half ${slope(pts("heapUsed")).toFixed(2)} MB/min; heap total max ${max("heapTotal").toFixed(0)} MB; external max ${max("external").toFixed(0)} MB`,
  ];
  const lessCaches = half.map((s) => ({ t: s.t / 60, y: s.rss - s.caches }));
  lines.push(
    `${run.label}: RSS less the size-bounded caches' bytes ${((first.rss - first.caches) / MB).toFixed(0)} MB at ${(first.t / 60).toFixed(1)} min, ${((end.rss - end.caches) / MB).toFixed(0)} MB at the end; slope over the last half ${slope(lessCaches).toFixed(2)} MB/min`,
  );
  lines.push(
    `${run.label}: anonymous RSS ${(first.rssAnon / MB).toFixed(0)} MB at ${(first.t / 60).toFixed(1)} min, ${(end.rssAnon / MB).toFixed(0)} MB at the end; slope over the last half ${slope(pts("rssAnon")).toFixed(2)} MB/min; the database file mapped ${(first.dbFile / MB).toFixed(0)} → ${(end.dbFile / MB).toFixed(0)} MB (SQLite's mmap: file-backed, at most mmap_size)`,
  );
  const warm = during.find((s) => s.t >= Math.min(60, (minutes * 60) / 2)) ?? first;
  const kinds = ["v8Pages", "mainArena", "threadArenas", "otherAnon"] as const;
  lines.push(
    `${run.label}: RSS by kind at ${(warm.t / 60).toFixed(1)} min → at the end: ${kinds
      .map((k) => `${k} ${(warm[k] / MB).toFixed(0)} → ${(end[k] / MB).toFixed(0)} MB (max ${max(k).toFixed(0)})`)
      .join(", ")}`,
  );
  const gc = run.samples.filter((s) => s.note.startsWith("after"));
  if (gc.length > 0)
    lines.push(
      `${run.label}: heap used right after each snapshot's full GC: ${gc.map((s) => `${(s.heapUsed / MB).toFixed(0)} MB (${s.note.slice(6)})`).join(", ")}`,
    );
  for (const [kind, m] of run.load.counts)
    lines.push(
      `${run.label}: ${kind}: ${[...m]
        .sort()
        .map(([c, n]) => `${c} ${n}`)
        .join(", ")}`,
    );
  return lines;
}

export async function memoryBench(deps: Deps, opts: MemoryOptions): Promise<string[]> {
  const { minutes } = opts;
  const every = opts.every ?? 10;
  const warmup = Math.min(opts.warmup ?? 60, (minutes * 60) / 2);
  const connections = opts.connections ?? 16;
  fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const variants: { label: string; env: Record<string, string>; nodeArgs: string[] }[] = [{ label: "default", env: {}, nodeArgs: [] }];
  const env = opts.env ?? {};
  const nodeArgs = opts.nodeArgs ?? [];
  if (Object.keys(env).length || nodeArgs.length) {
    const label = [...Object.entries(env).map(([k, v]) => `${k}=${path.basename(v)}`), ...nodeArgs].join(" ");
    variants.push({ label, env, nodeArgs });
  }
  const runs: Run[] = [];
  try {
    for (const v of variants) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-m-"));
      migrate(dir);
      const creds = deps.seed(dir, 1000);
      const snapDir = path.join(SNAPSHOT_DIR, v.label.replace(/[^\w=.-]+/g, "_"));
      fs.rmSync(snapDir, { recursive: true, force: true });
      fs.mkdirSync(snapDir, { recursive: true });
      const token = hex(16);
      const server = await startServer(dir, {
        env: { ...v.env, HALLMARK_METRICS_TOKEN: token },
        nodeArgs: [...v.nodeArgs, "--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapDir}`],
      });
      runs.push({
        label: v.label,
        server,
        dir,
        snapDir,
        token,
        load: new MixedLoad(server, creds, connections),
        samples: [],
        snapshots: [],
      });
    }
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    for (const run of runs) run.samples.push(await sampleOf(run, 0, "idle, before the load"));
    const loads = runs.map((run) => run.load.run());
    let snapped = !opts.heapDiff;
    for (let next = every; next <= minutes * 60 + 0.001; next += every) {
      await new Promise((r) => setTimeout(r, Math.max(0, started + next * 1000 - performance.now())));
      const t = elapsed();
      for (const run of runs) run.samples.push(await sampleOf(run, t, ""));
      console.error(
        runs
          .map((r) => {
            const s = r.samples[r.samples.length - 1]!;
            return `${r.label} ${(t / 60).toFixed(1)} min: RSS ${(s.rss / MB).toFixed(0)} MB, heap ${(s.heapUsed / MB).toFixed(0)} MB, ${s.requests} requests`;
          })
          .join("; "),
      );
      if (!snapped && t >= warmup) {
        snapped = true;
        // Under load: the early snapshot shows what the first minute left, after a full GC.
        for (const run of runs) {
          run.snapshots.push(await snapshot(run.server, run.snapDir, "early"));
          run.samples.push(await sampleOf(run, elapsed(), "after early snapshot"));
        }
      }
    }
    for (const run of runs) run.load.stop();
    await Promise.all(loads);
    await new Promise((r) => setTimeout(r, 5000)); // requests finish, timers run
    for (const run of runs) {
      run.samples.push(await sampleOf(run, elapsed(), "idle, load stopped"));
      // No --expose-gc from outside: a first snapshot collects garbage, and once the finalizers
      // that collection scheduled have run (undici's Requests hold their signals until then),
      // the second one shows what stays.
      await snapshot(run.server, run.snapDir, "end-first");
      run.samples.push(await sampleOf(run, elapsed(), "after first end snapshot"));
      await new Promise((r) => setTimeout(r, 5000));
      run.snapshots.push(await snapshot(run.server, run.snapDir, "end"));
      run.samples.push(await sampleOf(run, elapsed(), "after end snapshot"));
    }
    const limit = execFileSync(process.execPath, ["-p", "require('v8').getHeapStatistics().heap_size_limit"], { encoding: "utf8" });
    const lines: string[] = [
      `memory: ${minutes} min of mixed load, ${connections} clients per server, a sample every ${every} s; V8's heap limit here (Node's default) ${(Number(limit) / MB).toFixed(0)} MB`,
      "columns: RSS and its anonymous part from /proc/<pid>/status; db-file (the resident pages of the SQLite file SQLite maps: file-backed), v8-pages (256 KiB mappings: every isolate's heap pages), [heap] (glibc's main arena), arenas (glibc's other arenas) and other anonymous memory from /proc/<pid>/smaps; heap used and total (main isolate), external, the size-bounded caches (tiles, gzip: at most 96 MiB) and the tree-node cache's entries (a count, at most 250,000) from /metrics",
    ];
    for (const run of runs) lines.push(...table(run), ...summary(run, minutes));
    if (runs[0]!.snapshots.length === 2) {
      const heapDiff = execFileSync(
        process.execPath,
        ["--max-old-space-size=6144", "--import", "tsx", "bench/heap-diff.ts", ...runs[0]!.snapshots, "--top", "25"],
        { encoding: "utf8", maxBuffer: 64 * MB, stdio: ["ignore", "pipe", "inherit"] },
      );
      lines.push(`heap diff (${runs[0]!.label}): early snapshot (after ${warmup} s) → end snapshot`, ...heapDiff.trimEnd().split("\n"));
    }
    lines.push(`heap snapshots kept in ${SNAPSHOT_DIR}`);
    return lines;
  } finally {
    for (const run of runs) {
      run.load.close();
      await run.server.stop();
      fs.rmSync(run.dir, { recursive: true, force: true });
    }
  }
}
