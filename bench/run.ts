// `npm run bench`: Hallmark's throughput against `next start` on SQLite, each figure beside a
// bare route handler (app/bench/bare) measured in the same run, so the ratios hold on a noisy
// machine. Options: --leaves N (size of the big log, default 1,000,000), --seconds S per run
// (default 4), --rounds R (default 8; each runs every workload once, see compare.ts), --only
// writes|reads|gate|postgres|witness|add-checkpoint|public|batch|startup|memory|node-cache|lookup (bench/lookup.ts: similar-image lookup at 10^4-10^6 fingerprints, not part of the default run), --latency-seconds L (default 20)
// for the writes' latency runs, --against DIR to compare this tree with another checkout's build
// in the same rounds (with --sealed, the writes sealed and not instead: attestations, mints and
// batches of 100, against the same requests unsealed on the other side; with --only batch, the batch
// benchmark on both), --no-build to measure
// the last benchmark build instead of building the working tree, --cpu-prof DIR to write the
// batch benchmark's server CPU profile there (with --only postgres: a PostgreSQL instance's and the SQLite one's). --only memory runs only the memory benchmark (bench/memory.ts: --minutes M of
// mixed load, default 10; --env "K=V …" and/or --node-args="FLAGS" add a server with that
// environment and those node flags beside it; --heap-diff takes a heap snapshot under
// load after the first minute too, for a diff); it is not part of the default run.
// The big log is seeded once into bench/.cache and reused.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresAdminUrl } from "../server/test-support/postgres-admin-url.mjs";
import { compare, fmtRatio } from "./compare";
import { generator, load } from "./load";
import type { LoadResult } from "./workload";
import { DIST_DIR, envFor, migrate, startServer, type Server } from "./server";
import { TestWitness } from "../e2e/witness/test-witness";
import { mintPublic } from "./mint-public";
import { publicBench } from "./public";
import { type BatchRun, batchLoad, missingFrom, signingLimit } from "./batch";
import { cpuSeconds, cpuSecondsOf, endedChildrenCpuSeconds } from "./cpu";
import { startup } from "./startup";
import { memoryBench } from "./memory";
import { nodeCacheBench } from "./node-cache";
import { lookupBench } from "./lookup";
import { browserFingerprintBench } from "./fingerprint-browser";
import { addCheckpointBench } from "./witness-add-checkpoint";

const { values } = parseArgs({
  options: {
    leaves: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "4" },
    rounds: { type: "string", default: "8" },
    "latency-seconds": { type: "string", default: "20" },
    only: { type: "string" },
    minutes: { type: "string", default: "10" },
    env: { type: "string" },
    "node-args": { type: "string" },
    "heap-diff": { type: "boolean", default: false },
    build: { type: "boolean", default: true },
    against: { type: "string" },
    sealed: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
  },
  allowNegative: true,
});
// Checked before any build: the second memory server's environment, "NAME=value" items.
const envPairs = (values.env ?? "").split(/\s+/).filter(Boolean);
const notPair = envPairs.find((kv) => kv.indexOf("=") < 1);
if (notPair) {
  console.error(`--env takes "NAME=value" items separated by spaces, not ${JSON.stringify(notPair)}`);
  process.exit(2);
}
const memoryEnv = Object.fromEntries(envPairs.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
const BIG = Number(values.leaves);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const LATENCY_SECONDS = Number(values["latency-seconds"]);
const CONNECTIONS = 32;
const SMALL = 1000;

type Creds = {
  /** Keys of organisations with an owner, each allowed to make keys (bench/seed.ts). */
  key_makers: string[];
  api_key: string;
  issuer_id: string;
  consumer_key: string;
  consumer_email: string;
  consumer_password: string;
  sample_ids: string[];
};

function seed(dataDir: string, leaves: number, databaseUrl?: string): Creds {
  const out = execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "bench/seed.ts", "--leaves", String(leaves)], {
    env: envFor(dataDir, databaseUrl),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Creds;
}

const fmtList = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, mean ${r.mean.toFixed(1)} ms`;

/** Size of one real answer, for a baseline that serves as many bytes. */
async function answerBytes(url: string, init: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.arrayBuffer()).byteLength;
}

/** How many of the acknowledged ids have no log index in the database. */
function countMissing(dir: string, ids: string[]): number {
  const db = new Database(path.join(dir, "hallmark.db"), { readonly: true });
  const find = db.prepare("SELECT log_index FROM attestations WHERE id = ?");
  const missing = ids.filter((id) => find.get(id) === undefined).length;
  db.close();
  return missing;
}

async function treeSize(server: Server): Promise<number> {
  return ((await (await fetch(`${server.url}/v1/log`)).json()) as { tree_size: number }).tree_size;
}

async function writes(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-w-"));
  migrate(dir);
  const creds = seed(dir, 1);
  const server = await startServer(dir);
  try {
    const before = await treeSize(server);
    const bodyTemplate = JSON.stringify({ issuer_id: creds.issuer_id, payload: { content_hash: "CONTENT_HASH", title: "bench" } });
    const headers = { "content-type": "application/json", "x-api-key": creds.api_key };
    const sample = bodyTemplate.replace("CONTENT_HASH", randomBytes(32).toString("hex"));
    const bytes = await answerBytes(`${server.url}/v1/attestations`, { method: "POST", headers, body: sample });
    const acked: string[] = [];
    const post = { method: "POST" as const, headers, bodyTemplate, connections: CONNECTIONS, seconds: SECONDS };
    // A creator protecting a file as the dashboard does: a fresh Idempotency-Key per mint.
    const mintBody = JSON.stringify({
      content_hash: "CONTENT_HASH",
      title: "bench",
      file_name: "bench.png",
      category: "media",
      visibility: "public",
    });
    const workloads = {
      base: { ...post, url: `${server.url}/bench/bare?bytes=${bytes}` },
      target: { ...post, url: `${server.url}/v1/attestations`, onId: (id: string) => acked.push(id) },
      mint: {
        ...post,
        url: `${server.url}/v1/consumer/mint`,
        headers: { "content-type": "application/json", "x-api-key": creds.consumer_key },
        bodyTemplate: mintBody,
        idempotencyKeys: true,
        idField: "attestation_id",
        onId: (id: string) => acked.push(id),
      },
    };
    const c = await compare(workloads, ROUNDS);
    const r = c.mean;
    // Latency in a steady state: in a short run the first request of each of the 32 new
    // connections (all at once) is a visible share of the slowest 1%, in both routes.
    const steadyBase = await load({ ...workloads.base, seconds: LATENCY_SECONDS });
    const steady = await load({ ...workloads.target, seconds: LATENCY_SECONDS });
    const steadyMint = await load({ ...workloads.mint, seconds: LATENCY_SECONDS });
    // Every 201 must be in the log: acknowledged only once appended.
    const logged = (await treeSize(server)) - before;
    const missing = countMissing(dir, acked);
    return [
      `POST /v1/attestations, ${CONNECTIONS} clients: ${fmt(r.target)}; errors ${r.target.errors}`,
      `POST /v1/consumer/mint (Pro plan, an Idempotency-Key each), ${CONNECTIONS} clients: ${fmt(r.mint)}; errors ${r.mint.errors}`,
      `bare POST route (same answer size), same run: ${fmt(r.base)}`,
      `ratio attestations/bare: ${fmtRatio(c.ratio("target", "base"))} (issue asks >= 0.6, and >= 1000/s, p99 < 100 ms)`,
      `ratio mint/attestations: ${fmtRatio(c.ratio("mint", "target"))} (issue asks >= 0.8, p99 < 100 ms); mint/bare ${fmtRatio(c.ratio("mint", "base"))}`,
      `latency, one ${LATENCY_SECONDS} s run each after the rounds: attestations ${fmt(steady)}; mint ${fmt(steadyMint)}; bare ${fmt(steadyBase)}`,
      `p99 of each ${SECONDS} s round (ms; these include each run's first burst of new connections): attestations ${fmtList(c.p99s.target)}; mint ${fmtList(c.p99s.mint)}; bare ${fmtList(c.p99s.base)}`,
      // Requests in flight when a run stops are committed but never seen as acknowledged.
      `durability: ${acked.length} attestations and mints answered 201, ${missing} of them missing from the log; ${logged} new leaves`,
    ];
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Proof bundles against two baselines of the same answer size: the bare route with the
 * bundle's URL shape (/bench/bare/{id}: Next.js matches a dynamic segment on every request,
 * as it must for /v1/attestations/{id}/proof-bundle), and the static bare route.
 */
async function reads(
  dir: string,
  leaves: number,
  creds: Creds,
): Promise<{ lines: string[]; r: Record<"bare" | "shaped" | "target", LoadResult> }> {
  const server = await startServer(dir);
  try {
    const ids = creds.sample_ids;
    const headers = { "x-api-key": creds.api_key };
    const bytes = await answerBytes(`${server.url}/v1/attestations/${ids[0]}/proof-bundle`, { headers });
    const common = { headers, ids, connections: CONNECTIONS, seconds: SECONDS };
    const c = await compare(
      {
        bare: { ...common, url: `${server.url}/bench/bare?bytes=${bytes}` },
        shaped: { ...common, url: server.url, pathTemplate: `/bench/bare/ID?bytes=${bytes}` },
        target: { ...common, url: server.url, pathTemplate: "/v1/attestations/ID/proof-bundle" },
      },
      ROUNDS,
    );
    const r = c.mean;
    const n = leaves.toLocaleString("en");
    return {
      r,
      lines: [
        `GET proof-bundle at ${n} leaves: ${fmt(r.target)}; errors ${r.target.errors}`,
        `bare GET route of the same URL shape (/bench/bare/{id}), same answer size, same run: ${fmt(r.shaped)}`,
        `bare GET route, static URL, same answer size, same run: ${fmt(r.bare)}`,
        `ratio bundle/bare at ${n}: ${fmtRatio(c.ratio("target", "shaped"))} against the same URL shape (issue asks >= 0.7); ${fmtRatio(c.ratio("target", "bare"))} against the static URL`,
      ],
    };
  } finally {
    await server.stop();
  }
}

/**
 * What the gate (server/gate) costs every request: the same routes through Hallmark's server
 * and through plain `next start` on the same build and data, interleaved.
 */
async function gate(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-g-"));
  migrate(dir);
  const creds = seed(dir, 1);
  const [gated, plain] = [await startServer(dir), await startServer(dir, { bare: true })];
  try {
    const headers = { "content-type": "application/json", "x-api-key": creds.api_key };
    const bodyTemplate = JSON.stringify({ issuer_id: creds.issuer_id, payload: { content_hash: "CONTENT_HASH", title: "bench" } });
    const common = { connections: CONNECTIONS, seconds: SECONDS };
    const post = { ...common, method: "POST" as const, headers, bodyTemplate };
    const c = await compare(
      {
        logGated: { ...common, url: `${gated.url}/v1/log` },
        logPlain: { ...common, url: `${plain.url}/v1/log` },
        writeGated: { ...post, url: `${gated.url}/v1/attestations` },
        writePlain: { ...post, url: `${plain.url}/v1/attestations` },
        pageGated: { ...common, url: `${gated.url}/login` },
        pagePlain: { ...common, url: `${plain.url}/login` },
      },
      ROUNDS,
    );
    const r = c.mean;
    return [
      `gate: GET /v1/log ${fmt(r.logGated)}; without the gate (next start) ${fmt(r.logPlain)}; ratio ${fmtRatio(c.ratio("logGated", "logPlain"))}`,
      `gate: POST /v1/attestations ${fmt(r.writeGated)}; without the gate ${fmt(r.writePlain)}; ratio ${fmtRatio(c.ratio("writeGated", "writePlain"))}`,
      `gate: GET /login (a page, with its CSP nonce) ${fmt(r.pageGated)}; without the gate ${fmt(r.pagePlain)}; ratio ${fmtRatio(c.ratio("pageGated", "pagePlain"))}`,
    ];
  } finally {
    await Promise.all([gated.stop(), plain.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The write workloads (attestations and mints) against servers at `urls`, each taking a share of the clients. */
function writeWorkloads(urls: string[], creds: Creds) {
  const common = { method: "POST" as const, connections: CONNECTIONS, seconds: SECONDS, url: urls[0]! };
  return {
    attest: {
      ...common,
      urls: urls.map((u) => `${u}/v1/attestations`),
      headers: { "content-type": "application/json", "x-api-key": creds.api_key },
      bodyTemplate: JSON.stringify({ issuer_id: creds.issuer_id, payload: { content_hash: "CONTENT_HASH", title: "bench" } }),
    },
    mint: {
      ...common,
      urls: urls.map((u) => `${u}/v1/consumer/mint`),
      headers: { "content-type": "application/json", "x-api-key": creds.consumer_key },
      bodyTemplate: JSON.stringify({
        content_hash: "CONTENT_HASH",
        title: "bench",
        file_name: "bench.png",
        category: "media",
        visibility: "public",
      }),
      idempotencyKeys: true,
    },
  };
}

/**
 * The same writes on PostgreSQL, two instances sharing the load (one generator per instance)
 * and their limits (Redis), beside one SQLite instance in the same rounds. PostgreSQL is the local server
 * (HALLMARK_TEST_PG_URL, or postgresql://postgres@127.0.0.1:5432/postgres); a fresh database is
 * made for the run and dropped after.
 */
async function postgresWrites(): Promise<string[]> {
  const adminUrl = postgresAdminUrl;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return [`postgres: skipped, no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, "//")} (${(err as Error).message})`];
  }
  const name = `hallmark_bench_${Date.now()}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pgUrl = url.toString();
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-pg-"));
  const liteDir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-lite-"));
  const servers: Server[] = [];
  try {
    migrate(pgDir, pgUrl);
    migrate(liteDir);
    const pgCreds = seed(pgDir, 1, pgUrl);
    const liteCreds = seed(liteDir, 1);
    // Several instances share their limits in Redis, as an operator runs them (docs/operating.md, "Limits").
    const shared = { databaseUrl: pgUrl, env: { HALLMARK_REDIS_URL: process.env.HALLMARK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379" } };
    // --cpu-prof DIR: the first PostgreSQL instance's and the SQLite instance's V8 CPU profiles.
    const prof = cpuProfArgs();
    servers.push(
      await startServer(pgDir, { ...shared, nodeArgs: prof }),
      await startServer(pgDir, shared),
      await startServer(liteDir, { nodeArgs: prof }),
    );
    const onPg = writeWorkloads([servers[0]!.url, servers[1]!.url], pgCreds);
    const onLite = writeWorkloads([servers[2]!.url], liteCreds);
    // Where the CPU goes: the instances, PostgreSQL (its server and backends), Redis and the load
    // generator (wrk, a child of this process, counted once it has exited), all on these cores.
    const cpu = () => ({
      "PostgreSQL instances": cpuSeconds(servers[0]!.pid) + cpuSeconds(servers[1]!.pid),
      "SQLite instance": cpuSeconds(servers[2]!.pid),
      postgres: cpuSecondsOf("postgres"),
      redis: cpuSecondsOf("redis-server"),
      "load generator": endedChildrenCpuSeconds(),
    });
    const c = await compare({ pgAttest: onPg.attest, pgMint: onPg.mint, liteAttest: onLite.attest, liteMint: onLite.mint }, ROUNDS, {
      cpu,
    });
    const r = c.mean;
    const usOf = (n: keyof typeof c.cpuPerRequest, groups: string[]) =>
      groups.map((g) => `${g} ${c.cpuPerRequest[n][g]!.toFixed(0)}`).join(" + ") +
      ` = ${groups.reduce((s, g) => s + c.cpuPerRequest[n][g]!, 0).toFixed(0)} µs`;
    const onPgCpu = ["PostgreSQL instances", "postgres", "redis", "load generator"];
    const onLiteCpu = ["SQLite instance", "load generator"];
    return [
      `PostgreSQL, two instances: POST /v1/attestations ${fmt(r.pgAttest)}; POST /v1/consumer/mint ${fmt(r.pgMint)}; errors ${r.pgAttest.errors + r.pgMint.errors}`,
      `SQLite, one instance, same rounds: POST /v1/attestations ${fmt(r.liteAttest)}; POST /v1/consumer/mint ${fmt(r.liteMint)}`,
      `ratio PostgreSQL/SQLite: attestations ${fmtRatio(c.ratio("pgAttest", "liteAttest"))}; mint ${fmtRatio(c.ratio("pgMint", "liteMint"))} (target >= 0.9)`,
      `CPU per answer on these cores, attestations: PostgreSQL ${usOf("pgAttest", onPgCpu)}; SQLite ${usOf("liteAttest", onLiteCpu)}`,
      `CPU per answer on these cores, mint: PostgreSQL ${usOf("pgMint", onPgCpu)}; SQLite ${usOf("liteMint", onLiteCpu)}`,
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
    for (const d of [pgDir, liteDir]) fs.rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The time a creator waits, from an attestation's 201 to a tlog-proof that meets the witness
 * policy: the proof is asked for at once (the server holds it until the witnesses cosign, or
 * answers 503 with Retry-After, then asked again). Attestations start at random phases of the
 * one-second witnessing cadence.
 */
async function timeToWitnessedProof(url: string, creds: { api_key: string; issuer_id: string }, samples = 60) {
  const headers = { "content-type": "application/json", "x-api-key": creds.api_key };
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    await new Promise((r) => setTimeout(r, Math.random() * 1000));
    const made = await fetch(`${url}/v1/attestations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ issuer_id: creds.issuer_id, payload: { bench: "time-to-witnessed", i } }),
    });
    const t0 = performance.now();
    const { id } = (await made.json()) as { id: string };
    for (;;) {
      const res = await fetch(`${url}/v1/attestations/${id}/tlog-proof`, { headers: { "x-api-key": creds.api_key } });
      await res.arrayBuffer();
      if (res.status === 200 && res.headers.get("hallmark-witnessed") === "true") break;
      if (res.status !== 503) throw new Error(`tlog-proof answered ${res.status}`);
      await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
    }
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
  return { samples, p50: at(0.5), p99: at(0.99), max: Math.round(times.at(-1)!) };
}

/**
 * What witnessing costs the writes: one SQLite server whose policy names a test witness (C2SP
 * tlog-witness, e2e/witness) beside one without, interleaved; then, on the witnessed log, a full
 * tile beside a proof bundle, and whether the witness kept up.
 */
async function witnessing(): Promise<string[]> {
  const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-w-")), fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-nw-"))];
  const witness = new TestWitness({ name: "witness.bench/w1" });
  const witnessUrl = await witness.listen(0);
  const policy = path.join(dirs[0]!, "policy.txt");
  fs.writeFileSync(policy, `witness w1 ${witness.vkey} ${witnessUrl}\nquorum w1\n`);
  const servers: Server[] = [];
  try {
    for (const d of dirs) migrate(d);
    const [wCreds, nCreds] = [seed(dirs[0]!, 1), seed(dirs[1]!, 1)];
    servers.push(await startServer(dirs[0]!, { env: { HALLMARK_WITNESS_POLICY: policy } }), await startServer(dirs[1]!));
    witness.trust(((await (await fetch(`${servers[0]!.url}/v1/log`)).json()) as { verifier_key: string }).verifier_key);
    const onW = writeWorkloads([servers[0]!.url], wCreds);
    const onN = writeWorkloads([servers[1]!.url], nCreds);
    const c = await compare({ wAttest: onW.attest, nAttest: onN.attest, wMint: onW.mint, nMint: onN.mint }, ROUNDS);
    const r = c.mean;
    await new Promise((res) => setTimeout(res, 3000));
    const info = (await (await fetch(`${servers[0]!.url}/v1/log`)).json()) as {
      tree_size: number;
      witnessing: { published_tree_size: number; witnesses: { cosigned_tree_size: number }[] };
    };
    const submissions = witness.submissions.filter((x) => x.status === 200).length;
    const common = { connections: CONNECTIONS, seconds: SECONDS, headers: { "x-api-key": wCreds.api_key } };
    const t = await compare(
      {
        tile: { ...common, url: `${servers[0]!.url}/v1/log/tile/0/000` },
        bundle: { ...common, url: `${servers[0]!.url}/v1/attestations/${wCreds.sample_ids[0]}/proof-bundle` },
      },
      ROUNDS,
    );
    const latency = await timeToWitnessedProof(servers[0]!.url, wCreds);
    return [
      `witnessing: POST /v1/attestations ${fmt(r.wAttest)} witnessed; ${fmt(r.nAttest)} without; ratio ${fmtRatio(c.ratio("wAttest", "nAttest"))}`,
      `witnessing: from a 201 to its quorum-cosigned tlog-proof (${latency.samples} attestations, one at a time): p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms`,
      `witnessing: POST /v1/consumer/mint ${fmt(r.wMint)} witnessed; ${fmt(r.nMint)} without; ratio ${fmtRatio(c.ratio("wMint", "nMint"))}`,
      `witnessing: ${submissions} checkpoints cosigned during ${ROUNDS * 2 * SECONDS} s of writes; 3 s after, the log's size ${info.tree_size}, published (cosigned) ${info.witnessing.published_tree_size}`,
      `tiles: GET /v1/log/tile/0/000 (full) ${fmt(t.mean.tile)}; GET a proof bundle ${fmt(t.mean.bundle)}; ratio ${fmtRatio(t.ratio("tile", "bundle"))}`,
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await witness.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

/** Node flags for a server whose V8 CPU profile --cpu-prof DIR asks for: written to DIR when it stops. */
const cpuProfArgs = (): string[] => (values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(values["cpu-prof"])}`] : []);

/**
 * POST /v1/attestations/batch (1,000 items a request) from a few clients, in rounds alternating
 * with node:crypto's signing rate on one core (the work's limit), so their ratio holds on a noisy
 * machine; then the durability check. With --against DIR, the other checkout's server too, in
 * the same rounds (the order rotating), each on its own database.
 */
async function batches(): Promise<string[]> {
  const other = values.against && path.resolve(values.against);
  const sides = other ? (["this", "other"] as const) : (["this"] as const);
  if (other && !fs.existsSync(path.join(other, DIST_DIR, "BUILD_ID"))) throw new Error(`no build in ${other}/${DIST_DIR}`);
  const dirs = sides.map(() => fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-b-")));
  const creds = dirs.map((dir) => (migrate(dir), seed(dir, 1)));
  // --cpu-prof DIR: this tree's server's V8 CPU profile of the whole run.
  const servers = await Promise.all(
    sides.map((side, i) => startServer(dirs[i]!, side === "this" ? { nodeArgs: cpuProfArgs() } : { root: other })),
  );
  const clients = 4;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  try {
    for (const [i, server] of servers.entries()) await batchLoad(server, creds[i]!, clients, 1); // warm-up: JIT, caches, the issuer's signer
    const limits: number[] = [];
    const runs = sides.map(() => [] as BatchRun[]);
    for (let round = 0; round < Math.min(ROUNDS, 4); round++) {
      limits.push(signingLimit(2));
      for (let k = 0; k < sides.length; k++) {
        const i = (round + k) % sides.length;
        runs[i]!.push(await batchLoad(servers[i]!, creds[i]!, clients, SECONDS));
      }
    }
    const lines = sides.flatMap((side, i) => {
      const rs = runs[i]!;
      const rates = rs.map((r) => r.itemsPerSecond);
      const ratios = rates.map((r, k) => r / limits[k]!);
      const cpu = rs.map((r) => r.serverCpuPerItem);
      const acked = rs.flatMap((r) => r.acked);
      const last = rs.at(-1)!;
      const name = other ? `${side}: ` : "";
      return [
        `${name}POST /v1/attestations/batch, 1,000 items a request, ${clients} clients: ${fmtList(rates)} attestations/s per round (median ${median(rates).toFixed(0)}); last round ${last.batches} batches, p50 ${last.p50.toFixed(0)} ms, p99 ${last.p99.toFixed(0)} ms, errors ${last.errors}`,
        `${name}ratio batch/signing ${ratios.map((r) => r.toFixed(2)).join(", ")} (median ${median(ratios).toFixed(2)}; target >= 0.6)`,
        `${name}server CPU per attestation (all its threads, signing included): ${cpu.map((c) => c.toFixed(0)).join(", ")} µs (median ${median(cpu).toFixed(0)})`,
        `${name}  by thread, last round: event loop ${last.threadCpuPerItem.eventLoop.toFixed(1)} µs; others ${last.threadCpuPerItem.others.map((c) => c.toFixed(1)).join(", ")} µs`,
        `${name}durability: ${acked.length} attestations answered 201 in batches, ${missingFrom(dirs[i]!, acked)} of them missing from the log`,
      ];
    });
    const thisOverOther = other ? runs[0]!.map((r, k) => r.itemsPerSecond / runs[1]![k]!.itemsPerSecond) : [];
    return [
      `node:crypto Ed25519 signing alone on one core, each round: ${fmtList(limits)} signatures/s (${limits.map((l) => (1e6 / l).toFixed(0)).join(", ")} µs each)`,
      ...lines,
      ...(other
        ? [`ratio this/other, per round: ${thisOverOther.map((r) => r.toFixed(2)).join(", ")} (median ${median(thisOverOther).toFixed(2)})`]
        : []),
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

/**
 * This tree against another checkout (--against DIR, built there into the same dist folder:
 * `HALLMARK_DIST_DIR=.next-bench node scripts/build.mjs`), in the same rounds: each write and a
 * proof bundle on both, every figure as a ratio of this tree to the other. What changed between
 * them costs the hot paths this much.
 */
async function overhead(): Promise<string[]> {
  const other = path.resolve(values.against!);
  if (!fs.existsSync(path.join(other, DIST_DIR, "BUILD_ID"))) throw new Error(`no build in ${other}/${DIST_DIR}`);
  const dirs = [0, 1].map((i) => fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-bench-o${i}-`)));
  for (const d of dirs) migrate(d);
  const creds = dirs.map((d) => seed(d, SMALL));
  // Sign-up and login come from many people, each from an address of their own (X-Forwarded-For).
  const env = { HALLMARK_TRUSTED_PROXIES: "1" };
  const servers = [
    await startServer(dirs[0]!, { env, logFile: path.join(dirs[0]!, "server.log") }),
    await startServer(dirs[1]!, { env, root: other, logFile: path.join(dirs[1]!, "server.log") }),
  ];
  try {
    const post = (i: number, url: string, body: string, key: string, extra = {}) => ({
      method: "POST" as const,
      url: `${servers[i]!.url}${url}`,
      headers: { "content-type": "application/json", "x-api-key": key },
      bodyTemplate: body,
      connections: CONNECTIONS,
      seconds: SECONDS,
      ...extra,
    });
    const attest = (i: number) =>
      post(
        i,
        "/v1/attestations",
        JSON.stringify({ issuer_id: creds[i]!.issuer_id, payload: { content_hash: "CONTENT_HASH", title: "bench" } }),
        creds[i]!.api_key,
      );
    const mint = (i: number, extra = {}) =>
      post(
        i,
        "/v1/consumer/mint",
        JSON.stringify({
          content_hash: "CONTENT_HASH",
          title: "bench",
          file_name: "bench.png",
          category: "media",
          visibility: "public",
          ...extra,
        }),
        creds[i]!.consumer_key,
        { idempotencyKeys: true },
      );
    const bundle = (i: number) => ({
      method: "GET" as const,
      url: servers[i]!.url,
      pathTemplate: "/v1/attestations/ID/proof-bundle",
      ids: creds[i]!.sample_ids,
      headers: { "x-api-key": creds[i]!.api_key },
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const anonymous = (i: number, url: string, body: string) => ({
      ...post(i, url, body, ""),
      headers: { "content-type": "application/json" },
      manyClients: true,
    });
    const login = (i: number) =>
      anonymous(i, "/v1/consumer/login", JSON.stringify({ email: creds[i]!.consumer_email, password: creds[i]!.consumer_password }));
    const signup = (i: number) =>
      anonymous(i, "/v1/consumer/signup", JSON.stringify({ email: "bench-UNIQUE@example.org", password: "bench password", name: "Bench" }));
    // A key made by a key, each request by one of 40 organisations (a plan bounds the keys one
    // account makes a day), its notice mailed to the organisation's owner.
    const makeKey = (i: number) => ({
      ...post(i, "/v1/api-keys", JSON.stringify({ name: "bench UNIQUE", scopes: ["attestations:read"] }), ""),
      apiKeys: creds[i]!.key_makers,
    });
    if (values.sealed) return await sealedOverhead(other, post, creds, bundle);
    // Public reads a visitor's page makes: a protection (its verify and share pages) and who
    // protected a file or a picture like it, over 50 public protections of fingerprinted
    // pictures minted on each side first.
    const minted = await Promise.all(servers.map((srv, i) => mintPublic(srv.url, creds[i]!.consumer_key, 50, { fingerprinted: true })));
    const anonymousGet = (i: number, pathTemplate: string, ids: string[]) => ({
      method: "GET" as const,
      url: servers[i]!.url,
      pathTemplate,
      ids,
      headers: {},
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const protection = (i: number) => anonymousGet(i, "/v1/protections/ID", minted[i]!.ids);
    const lookup = (i: number) => anonymousGet(i, "/v1/lookup?content_hash=ID", minted[i]!.contentHashes);
    const lookupPdq = (i: number) => anonymousGet(i, "/v1/lookup?pdq=ID", minted[i]!.pdqHashes);
    const c = await compare(
      {
        attest: attest(0),
        attestOther: attest(1),
        mint: mint(0),
        mintOther: mint(1),
        // A picture's mint (its fingerprint signed, stored, indexed) on both sides, and against
        // this tree's mint without one. A checkout without fingerprints answers it 422 (counted
        // as errors), and its figure then says nothing.
        mintPdq: mint(0, { fingerprints: [{ alg: "pdq", hash: "PDQ_HASH", quality: 90 }] }),
        mintPdqOther: mint(1, { fingerprints: [{ alg: "pdq", hash: "PDQ_HASH", quality: 90 }] }),
        bundle: bundle(0),
        bundleOther: bundle(1),
        login: login(0),
        loginOther: login(1),
        signup: signup(0),
        signupOther: signup(1),
        makeKey: makeKey(0),
        makeKeyOther: makeKey(1),
        protection: protection(0),
        protectionOther: protection(1),
        lookup: lookup(0),
        lookupOther: lookup(1),
        lookupPdq: lookupPdq(0),
        lookupPdqOther: lookupPdq(1),
      },
      ROUNDS,
      // Logins and sign-ups leave hashes queued when their load stops.
      { settleMs: 2_000 },
    );
    const r = c.mean;
    return [
      `this tree against ${other}, same rounds (ratio this/other; issue asks >= 0.95):`,
      `  POST /v1/attestations: ${fmt(r.attest)} vs ${fmt(r.attestOther)}; ratio ${fmtRatio(c.ratio("attest", "attestOther"))}`,
      `  POST /v1/consumer/mint: ${fmt(r.mint)} vs ${fmt(r.mintOther)}; ratio ${fmtRatio(c.ratio("mint", "mintOther"))}`,
      `  POST /v1/consumer/mint with a PDQ fingerprint: ${fmt(r.mintPdq)} vs ${fmt(r.mintPdqOther)} (errors ${r.mintPdqOther.errors}); ratio ${fmtRatio(c.ratio("mintPdq", "mintPdqOther"))}; to this tree's mint without ${fmtRatio(c.ratio("mintPdq", "mint"))}`,
      `  proof bundle, log of ${SMALL.toLocaleString("en")}: ${fmt(r.bundle)} vs ${fmt(r.bundleOther)}; ratio ${fmtRatio(c.ratio("bundle", "bundleOther"))}`,
      `  POST /v1/consumer/login: ${fmt(r.login)} vs ${fmt(r.loginOther)}; ratio ${fmtRatio(c.ratio("login", "loginOther"))}`,
      `  POST /v1/consumer/signup: ${fmt(r.signup)} vs ${fmt(r.signupOther)}; ratio ${fmtRatio(c.ratio("signup", "signupOther"))}`,
      `  POST /v1/api-keys by a key (its notice mailed): ${fmt(r.makeKey)} vs ${fmt(r.makeKeyOther)} (errors ${r.makeKey.errors} vs ${r.makeKeyOther.errors}); ratio ${fmtRatio(c.ratio("makeKey", "makeKeyOther"))}`,
      `  GET /v1/protections/{id}: ${fmt(r.protection)} vs ${fmt(r.protectionOther)}; ratio ${fmtRatio(c.ratio("protection", "protectionOther"))}`,
      `  GET /v1/lookup?content_hash= (a public protection's): ${fmt(r.lookup)} vs ${fmt(r.lookupOther)}; ratio ${fmtRatio(c.ratio("lookup", "lookupOther"))}`,
      `  GET /v1/lookup?pdq= (a public protection's picture): ${fmt(r.lookupPdq)} vs ${fmt(r.lookupPdqOther)}; ratio ${fmtRatio(c.ratio("lookupPdq", "lookupPdqOther"))}`,
    ];
  } finally {
    for (const s of servers) await s.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

type Post = (i: number, url: string, body: string, key: string, extra?: object) => Parameters<typeof compare>[0][string];

/**
 * What sealed entries cost (--against DIR --sealed): a proof bundle, and each write here sealed
 * and not, each against the same request on the other checkout, which logs it in the open (a
 * checkout from before sealed entries is sent no `sealed` member: it would refuse one). Private
 * mints are sealed here; batches hold 100 items.
 */
async function sealedOverhead(
  other: string,
  post: Post,
  creds: ReturnType<typeof seed>[],
  bundle: (i: number) => Parameters<typeof compare>[0][string],
): Promise<string[]> {
  const attest = (i: number, sealed: boolean) =>
    post(
      i,
      "/v1/attestations",
      JSON.stringify({
        issuer_id: creds[i]!.issuer_id,
        payload: { content_hash: "CONTENT_HASH", title: "bench" },
        ...(sealed ? { sealed } : {}),
      }),
      creds[i]!.api_key,
    );
  const mint = (i: number, visibility: string) =>
    post(
      i,
      "/v1/consumer/mint",
      JSON.stringify({ content_hash: "CONTENT_HASH", title: "bench", file_name: "bench.png", category: "media", visibility }),
      creds[i]!.consumer_key,
      { idempotencyKeys: true },
    );
  const batch = (i: number, sealed: boolean) =>
    post(
      i,
      "/v1/attestations/batch",
      JSON.stringify({
        items: Array.from({ length: 100 }, (_, n) => ({
          issuer_id: creds[i]!.issuer_id,
          payload: { content_hash: n === 0 ? "CONTENT_HASH" : `${n}`, title: "bench" },
          ...(sealed ? { sealed } : {}),
        })),
      }),
      creds[i]!.api_key,
    );
  const c = await compare(
    {
      bundle: bundle(0),
      bundleOther: bundle(1),
      attest: attest(0, false),
      attestSealed: attest(0, true),
      attestOther: attest(1, false),
      mint: mint(0, "public"),
      mintPrivate: mint(0, "private"),
      mintOther: mint(1, "public"),
      mintPrivateOther: mint(1, "private"),
      batch: batch(0, false),
      batchSealed: batch(0, true),
      batchOther: batch(1, false),
    },
    ROUNDS,
  );
  const r = c.mean;
  type Name = keyof typeof r;
  const row = (what: string, a: Name, b: Name) => `  ${what}: ${fmt(r[a])} vs ${fmt(r[b])}; ratio ${fmtRatio(c.ratio(a, b))}`;
  return [
    `sealed entries: this tree against ${other}, same rounds (ratio this/other; batches of 100 items, requests/s):`,
    row(`proof bundle (not sealed), log of ${SMALL.toLocaleString("en")}`, "bundle", "bundleOther"),
    row("POST /v1/attestations, not sealed", "attest", "attestOther"),
    row("POST /v1/attestations, sealed (other: not sealed)", "attestSealed", "attestOther"),
    row("POST /v1/consumer/mint, public", "mint", "mintOther"),
    row("POST /v1/consumer/mint, private: sealed (other: in the open)", "mintPrivate", "mintPrivateOther"),
    row("POST /v1/attestations/batch, not sealed", "batch", "batchOther"),
    row("POST /v1/attestations/batch, sealed (other: not sealed)", "batchSealed", "batchOther"),
  ];
}

/** Start to ready with no migration pending, on SQLite (a small and the big log) and PostgreSQL, beside bare `next start`. */
async function startups(): Promise<string[]> {
  const runs = Math.max(3, Math.min(ROUNDS, 7));
  const fmtMs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
  const line = (what: string, r: Awaited<ReturnType<typeof startup>>) =>
    `${what}: start to ready ${fmtMs(r.ready)} ms (median ${r.median(r.ready).toFixed(0)}; issue asks <= 2,000), SIGTERM to exit ${fmtMs(r.stop)} ms; bare next start to its first answer ${fmtMs(r.bare)} ms (median ${r.median(r.bare).toFixed(0)}); ratio ${(r.median(r.ready) / r.median(r.bare)).toFixed(2)}`;
  const small = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-s-"));
  migrate(small);
  seed(small, SMALL);
  const lines = [line(`npm start, SQLite, ${SMALL.toLocaleString("en")} leaves`, await startup(small, runs))];
  fs.rmSync(small, { recursive: true, force: true });
  const big = await bigLog();
  lines.push(line(`npm start, SQLite, ${BIG.toLocaleString("en")} leaves`, await startup(big.dir, runs)));
  const admin = postgresAdminUrl;
  const name = `hallmark_bench_start_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-sp-"));
    migrate(dir, url.toString());
    seed(dir, SMALL, url.toString());
    lines.push(line(`npm start, PostgreSQL, ${SMALL.toLocaleString("en")} leaves`, await startup(dir, runs, url.toString())));
    fs.rmSync(dir, { recursive: true, force: true });
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
  return lines;
}

async function bigLog(): Promise<{ dir: string; creds: Creds }> {
  const dir = path.resolve("bench/.cache", `log-${BIG}`);
  const credsFile = path.join(dir, "creds.json");
  if (!fs.existsSync(credsFile)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    migrate(dir);
    console.log(`seeding a log of ${BIG.toLocaleString("en")} leaves into ${dir} (once; reused later)...`);
    fs.writeFileSync(credsFile, JSON.stringify(seed(dir, BIG)));
  }
  return { dir, creds: JSON.parse(fs.readFileSync(credsFile, "utf8")) as Creds };
}

async function main() {
  if (values.only === "node-cache") return console.log([`Hallmark bench ${new Date().toISOString()}`, ...nodeCacheBench()].join("\n"));
  // Always a fresh build of the working tree (a stale one would measure old code), unless --no-build.
  if (values.build || !fs.existsSync(path.join(DIST_DIR, "BUILD_ID"))) {
    execFileSync("node", ["scripts/build.mjs"], { stdio: "inherit", env: { ...process.env, HALLMARK_DIST_DIR: DIST_DIR } });
  }
  const lines: string[] = [
    `Hallmark bench ${new Date().toISOString()} on ${os.cpus().length} cores; load by ${generator}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s runs per workload; ratios are medians of per-round ratios`,
  ];
  if (values.only === "lookup") {
    return console.log("\n" + [...lines, ...(await browserFingerprintBench()), ...(await lookupBench({ seed }))].join("\n"));
  }
  if (values.only === "gate") return console.log("\n" + [...lines, ...(await gate())].join("\n"));
  if (values.only === "postgres") return console.log("\n" + [...lines, ...(await postgresWrites())].join("\n"));
  const addCheckpoint = () => addCheckpointBench({ fmt, rounds: ROUNDS, seconds: SECONDS });
  if (values.only === "witness") return console.log("\n" + [...lines, ...(await witnessing()), ...(await addCheckpoint())].join("\n"));
  if (values.only === "add-checkpoint") return console.log("\n" + [...lines, ...(await addCheckpoint())].join("\n"));
  if (values.only === "batch") return console.log("\n" + [...lines, ...(await batches())].join("\n"));
  if (values.against) return console.log("\n" + [...lines, ...(await overhead())].join("\n"));
  if (values.only === "startup") return console.log("\n" + [...lines, ...(await startups())].join("\n"));
  if (values.only === "memory") {
    const nodeArgs = values["node-args"]?.split(/\s+/).filter(Boolean);
    const opts = { minutes: Number(values.minutes), env: memoryEnv, nodeArgs, heapDiff: values["heap-diff"] };
    return console.log("\n" + [...lines, ...(await memoryBench({ seed }, opts))].join("\n"));
  }
  const publicReads = () =>
    publicBench(fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-p-")), {
      seed,
      fmt,
      rounds: ROUNDS,
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
  if (values.only === "public") return console.log("\n" + [...lines, ...(await publicReads())].join("\n"));
  if (values.only !== "reads") lines.push(...(await writes()));
  if (values.only === "writes") return console.log("\n" + lines.join("\n"));
  if (values.only !== "reads")
    lines.push(
      ...(await batches()),
      ...(await startups()),
      ...(await gate()),
      ...(await postgresWrites()),
      ...(await witnessing()),
      ...(await addCheckpoint()),
      ...(await publicReads()),
    );

  const smallDir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-r-"));
  migrate(smallDir);
  const small = await reads(smallDir, SMALL, seed(smallDir, SMALL));
  fs.rmSync(smallDir, { recursive: true, force: true });
  const big = await bigLog();
  const large = await reads(big.dir, BIG, big.creds);
  lines.push(...small.lines, ...large.lines);
  lines.push(
    `time per proof (mean latency) at ${BIG.toLocaleString("en")} / at ${SMALL.toLocaleString("en")}: ${(large.r.target.mean / small.r.target.mean).toFixed(2)} (issue asks <= 1.5)`,
  );
  console.log("\n" + lines.join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
