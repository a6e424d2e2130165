// @ts-check
// CPU time per 2xx request of two Hallmark builds under the same fixed load: what a route costs,
// robust to a noisy machine where throughput ratios are not (npm run bench measures those).
//   node bench/cpu-per-request.mjs <checkout A> <checkout B>
// Each checkout must be built with HALLMARK_DIST_DIR=.next-bench (npm run bench builds its own
// tree so; `HALLMARK_DIST_DIR=.next-bench node scripts/build.mjs` builds another). Each server
// gets a fresh data directory seeded by its own checkout (bench/seed.ts), is warmed up (WARM
// requests), then takes N requests of POST /v1/attestations (ATT_ROUNDS rounds) and of POST
// /v1/consumer/mint (MINT_ROUNDS rounds; MINT_VISIBILITY, default public) and of GET
// /v1/attestations/{id}/proof-bundle over a log of LEAVES entries (BUNDLE_ROUNDS rounds, default
// 0) and of GET /v1/protections/{id}, a visitor's read of one of 50 public protections minted
// first (PROTECTION_ROUNDS rounds, default 0), at 32 connections. By default both servers take each
// round's load at the same time, so both meet the same contention (MODE=alternate runs them
// one after the other). The measure is the server process's utime+stime (/proc/<pid>/stat, all
// its threads) per 2xx answer; the figure is the median of the per-round ratios B/A.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
const autocannon = /** @type {typeof import("autocannon")} */ (createRequire(import.meta.url)("autocannon"));

/** @typedef {{ name: string, root: string }} Side */
/**
 * What bench/seed.ts prints: the keys and issuer the load uses, and ids of protections to read.
 * @typedef {{ api_key: string, issuer_id: string, consumer_key: string, sample_ids: string[] }} Creds
 */
/**
 * A running server; `others` and `steal` are the last measure's (cores, seconds).
 * @typedef {Side & { dir: string, creds: Creds, url: string, pid: number | undefined, child: import("node:child_process").ChildProcess, protections: string[], others?: number, steal?: number }} Server
 */
/** @typedef {"attest" | "mint" | "bundle" | "protection"} Route */
/** @typedef {{ method?: "GET" | "POST", key: string, path: () => string, idem?: boolean, body?: () => string }} Workload */
/** @typedef {Awaited<ReturnType<typeof measure>>} Measure */

const N = Number(process.env.N ?? 4000),
  WARM = Number(process.env.WARM ?? 3000),
  CONN = 32;
const ATT_ROUNDS = Number(process.env.ATT_ROUNDS ?? 6),
  MINT_ROUNDS = Number(process.env.MINT_ROUNDS ?? 4),
  BUNDLE_ROUNDS = Number(process.env.BUNDLE_ROUNDS ?? 0),
  PROTECTION_ROUNDS = Number(process.env.PROTECTION_ROUNDS ?? 0),
  LEAVES = String(Number(process.env.LEAVES ?? 1));
const TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
if (process.argv.length !== 4) {
  console.error("usage: node bench/cpu-per-request.mjs <checkout A> <checkout B>");
  process.exit(2);
}
const SIDES = process.argv
  .slice(2)
  .map((root, i) => ({ name: `${"AB"[i]} ${path.basename(path.resolve(root))}`, root: path.resolve(root) }));

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((res) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = /** @type {import("node:net").AddressInfo} */ (s.address()).port;
      s.close(() => res(p));
    });
  });
// As bench/server.ts envFor, for both sides (a checkout that predates a budget ignores it).
/**
 * @param {string} dir
 * @returns {NodeJS.ProcessEnv}
 */
const envFor = (dir) => ({
  ...process.env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  HALLMARK_BENCH: "1",
  HALLMARK_DIST_DIR: ".next-bench",
  HALLMARK_DATA_DIR: dir,
  DATABASE_URL: `file:${dir}/hallmark.db`,
  HALLMARK_LOG_ORIGIN: "hallmark-bench",
  HALLMARK_LOOKUPS_PER_MINUTE: "1000000",
  HALLMARK_CERTIFICATES_PER_MINUTE: "1000000",
  HALLMARK_EXPORTS_PER_HOUR: "1000000",
});
/** @param {number | undefined} pid */
function cpuTicks(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" "); // f[0] = field 3 (state)
  return Number(f[11]) + Number(f[12]); // utime (14) + stime (15)
}

/**
 * @param {Side} side
 * @returns {Promise<Server>}
 */
async function start(side) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpu-ab-"));
  const env = envFor(dir);
  // Each checkout migrates and seeds its own database with its own code (schemas differ).
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], { cwd: side.root, env, stdio: ["ignore", "ignore", "inherit"] });
  const out = execFileSync(
    path.join(side.root, "node_modules/.bin/tsx"),
    ["--conditions=react-server", "bench/seed.ts", "--leaves", LEAVES],
    {
      cwd: side.root,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  /** @type {Creds} */
  const creds = JSON.parse(out.trim().split("\n").at(-1) ?? "");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The checkout's own env.mjs, with this one's API.
  const { serverNodeArgs } = /** @type {typeof import("../server/env.mjs")} */ (await import(path.join(side.root, "server/env.mjs")));
  const senv = { ...env, PORT: String(port), HALLMARK_BASE_URL: url };
  const child = spawn(process.execPath, [...serverNodeArgs(senv), "scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: side.root,
    env: senv,
    stdio: ["ignore", fs.openSync(path.join(dir, "server.log"), "a"), fs.openSync(path.join(dir, "server.err"), "a")],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/v1/log`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  /** @type {string[]} */
  const protections = [];
  for (let i = 0; PROTECTION_ROUNDS > 0 && i < 50; i++) {
    const res = await fetch(`${url}/v1/consumer/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": creds.consumer_key },
      body: JSON.stringify({ content_hash: randomBytes(32).toString("hex"), title: "bench", visibility: "public" }),
    });
    if (res.status !== 201) throw new Error(`${side.name}: mint answered ${res.status}`);
    protections.push(/** @type {{ protection_id: string }} */ (await res.json()).protection_id);
  }
  return { ...side, dir, creds, url, pid: child.pid, child, protections };
}

/**
 * @param {Server} s
 * @param {Route} route
 * @returns {Workload}
 */
function workload(s, route) {
  if (route === "bundle") {
    const ids = s.creds.sample_ids;
    return {
      method: "GET",
      key: s.creds.api_key,
      path: () => `/v1/attestations/${ids[Math.floor(Math.random() * ids.length)]}/proof-bundle`,
    };
  }
  if (route === "protection") {
    const ids = s.protections;
    return { method: "GET", key: "", path: () => `/v1/protections/${ids[Math.floor(Math.random() * ids.length)]}` };
  }
  if (route === "attest")
    return {
      path: () => "/v1/attestations",
      key: s.creds.api_key,
      idem: false,
      body: () =>
        JSON.stringify({ issuer_id: s.creds.issuer_id, payload: { content_hash: randomBytes(32).toString("hex"), title: "bench" } }),
    };
  return {
    path: () => "/v1/consumer/mint",
    key: s.creds.consumer_key,
    idem: true,
    body: () =>
      JSON.stringify({
        content_hash: randomBytes(32).toString("hex"),
        title: "bench",
        file_name: "bench.png",
        category: "media",
        visibility: process.env.MINT_VISIBILITY ?? "public",
      }),
  };
}
/**
 * @param {Server} s
 * @param {Route} route
 * @param {number} amount
 */
async function fire(s, route, amount) {
  const w = workload(s, route);
  /** @type {Record<number, number>} */
  const codes = {};
  const r = await autocannon({
    url: s.url,
    connections: CONN,
    amount,
    timeout: 30,
    requests: [
      {
        method: w.method ?? "POST",
        // A visitor's read (no key) sends none.
        headers: { "content-type": "application/json", ...(w.key ? { "x-api-key": w.key } : {}) },
        setupRequest: (req) => ({
          ...req,
          path: w.path(),
          ...(w.body ? { body: w.body() } : {}),
          headers: { ...req.headers, ...(w.idem ? { "idempotency-key": randomBytes(16).toString("hex") } : {}) },
        }),
        onResponse: (status) => {
          codes[status] = (codes[status] ?? 0) + 1;
        },
      },
    ],
  });
  return { ok: r["2xx"], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, codes, rps: r.requests.average, p50: r.latency.p50 };
}
function sysBusy() {
  // non-idle ticks of the whole machine (all CPUs), and steal, from the first line of /proc/stat:
  // cpu user nice system idle iowait irq softirq [steal …]
  const f = /** @type {[number, number, number, number, number, number, number, number?]} */ (
    (fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number)
  );
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6], steal: f[7] ?? 0 };
}
const selfTicks = () => cpuTicks(process.pid);
/**
 * @param {Server} s
 * @param {Route} route
 */
async function measure(s, route, amount = N) {
  const sb0 = sysBusy(),
    me0 = selfTicks();
  const t0 = performance.now(),
    c0 = cpuTicks(s.pid);
  const r = await fire(s, route, amount);
  const t1 = performance.now(),
    c1 = cpuTicks(s.pid);
  await new Promise((res) => setTimeout(res, 1000));
  const c2 = cpuTicks(s.pid);
  const sb1 = sysBusy(),
    me1 = selfTicks();
  // Others' CPU during the interval (whole machine minus this server and the load generator), in cores.
  s.others = (sb1.busy - sb0.busy - (c2 - c0) - (me1 - me0)) / TCK / ((performance.now() - t0) / 1000);
  s.steal = (sb1.steal - sb0.steal) / TCK;
  const ms = ((c1 - c0) * 1000) / TCK,
    msSettled = ((c2 - c0) * 1000) / TCK;
  return {
    ...r,
    others: s.others,
    steal: s.steal,
    rps: r.ok / ((t1 - t0) / 1000),
    cpuMs: ms,
    perReq: ms / r.ok,
    perReqSettled: msSettled / r.ok,
    wallS: (t1 - t0) / 1000,
  };
}
/** @param {number[]} xs not empty */
const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  // m, and m - 1 when the length is even, are within a.
  const at = (/** @type {number} */ i) => /** @type {number} */ (a[i]);
  return a.length % 2 ? at(m) : (at(m - 1) + at(m)) / 2;
};

/** @type {Server[]} */
const servers = [];
const cleanup = async () => {
  for (const s of servers) {
    if (s.child.exitCode === null) {
      s.child.kill("SIGTERM");
      await new Promise((r) => {
        s.child.once("exit", r);
        setTimeout(r, 20000);
      });
    }
  }
};
process.on("SIGINT", async () => {
  await cleanup();
  process.exit(130);
});
try {
  for (const side of SIDES) servers.push(await start(side));
  for (const s of servers)
    console.log(
      `${s.name}: pid ${s.pid} ${s.url} dir ${s.dir} cmd: ${fs.readFileSync(`/proc/${s.pid}/cmdline`, "utf8").replace(/\0/g, " ")} threads ${fs.readdirSync(`/proc/${s.pid}/task`).length}`,
    );
  // Idle CPU over 5 s each (background timers), for reference.
  for (const s of servers) {
    const c0 = cpuTicks(s.pid);
    await new Promise((r) => setTimeout(r, 5000));
    console.log(`${s.name} idle: ${(((cpuTicks(s.pid) - c0) * 1000) / TCK / 5).toFixed(1)} CPU-ms/s`);
  }
  // Two checkouts, so two servers.
  const [serverA, serverB] = /** @type {[Server, Server]} */ (servers);
  for (const [route, rounds] of /** @type {[Route, number][]} */ ([
    ["attest", ATT_ROUNDS],
    ["mint", MINT_ROUNDS],
    ["bundle", BUNDLE_ROUNDS],
    ["protection", PROTECTION_ROUNDS],
  ])) {
    if (!rounds) continue;
    for (const s of servers) {
      const w = await measure(s, route, WARM);
      console.log(
        `${route} warm-up ${s.name}: ${w.ok} 2xx, non2xx ${w.non2xx} ${JSON.stringify(w.codes)}, ${w.perReq.toFixed(3)} CPU-ms/req, ${w.rps.toFixed(0)} req/s`,
      );
    }
    /** @type {number[]} */
    const ratios = [],
      ratiosSettled = [];
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      /** @type {Measure[]} */
      const res = [];
      if (process.env.MODE !== "alternate") {
        // both servers loaded at the same time: same contention
        res.push(...(await Promise.all(servers.map((sv) => measure(sv, route)))));
      } else for (const k of order) res[k] = await measure(/** @type {Server} */ (servers[k]), route);
      // One measure per server, in the servers' order.
      const [a, b] = /** @type {[Measure, Measure]} */ (res);
      const ratio = b.perReq / a.perReq;
      const ratioSettled = b.perReqSettled / a.perReqSettled;
      ratios.push(ratio);
      ratiosSettled.push(ratioSettled);
      /**
       * @param {Server} s
       * @param {Measure} r
       */
      const line = (s, r) =>
        `${s.name.split(" ")[0]} ${r.perReq.toFixed(3)} (settled ${r.perReqSettled.toFixed(3)}) ms/req ${r.ok} 2xx non2xx ${r.non2xx} err ${r.errors + r.timeouts} ${JSON.stringify(r.codes)} ${r.rps.toFixed(0)} req/s p50 ${r.p50}ms others ${r.others.toFixed(2)} cores steal ${r.steal.toFixed(1)}s`;
      console.log(
        `${route} round ${i + 1} order ${order.map((k) => "AB"[k]).join("")}: ${line(serverA, a)} | ${line(serverB, b)} | B/A ${ratio.toFixed(3)} (settled ${ratioSettled.toFixed(3)})`,
      );
    }
    console.log(
      `${route}: median B/A ${median(ratios).toFixed(3)} (settled ${median(ratiosSettled).toFixed(3)}); per-round ${ratios.map((r) => r.toFixed(3)).join(", ")}`,
    );
  }
} finally {
  await cleanup();
  for (const s of servers) {
    const err = fs.readFileSync(path.join(s.dir, "server.err"), "utf8");
    if (err.trim()) console.log(`${s.name} stderr tail: ${err.trim().split("\n").slice(-3).join(" / ")}`);
    fs.rmSync(s.dir, { recursive: true, force: true });
  }
}
