#!/usr/bin/env node
// @ts-check
// `npm test`: the whole suite, as CI runs it.
//   1. unit tests (lib/verify, Merkle storage, crypto) with Vitest
//   2. the REST suite through HTTP against `next start` on a fresh SQLite file, its files in
//      lanes side by side (restSuite), then the log audit (rebuild the tree from all leaves,
//      match every checkpoint)
//   3. on the same SQLite server, the browser suite: Playwright driving Debian's Chromium
//      headless shell (e2e/web), skipped with the reason printed when no Chromium is installed
//   4. the REST files declared for PostgreSQL against a fresh PostgreSQL database with TWO app
//      instances sharing it, skipped with the reason printed when no PostgreSQL answers
// Where each REST file runs (its databases, its lane) is what the file declares in its first
// lines (`// @hallmark-test db=… lane=…`, e2e/placement.mjs); a file without a declaration fails
// the run before anything is built. `npm test -- --list` prints every test file with its placement.
// Ends with the line `N passed, N failed`.
// Env: HALLMARK_TEST_PG_URL (admin URL of a PostgreSQL server; default the local one),
//      HALLMARK_SKIP_BUILD=1 to reuse an existing build, HALLMARK_DIST_DIR for its folder,
//      while developing: HALLMARK_TEST_FILES="e2e/api/x.test.ts …" to run only those REST
//      files, each where it is declared (and no unit tests), HALLMARK_TEST_DBS=sqlite or postgres
//      for one database only, HALLMARK_TEST_SUITES="rest web" (default both; "unit": the unit
//      suite alone, no build), HALLMARK_TEST_WEB_ARGS="…" extra Playwright arguments (e.g. a spec
//      file, or --grep).
//      HALLMARK_TEST_STRICT=1 (CI sets it): a suite that cannot run because its service or tool
//      is missing (Chromium, PostgreSQL, Redis for the two-instance run) counts as a failure
//      instead of a skip, and the run's skipped tests are held to e2e/skips.txt (a skip it does
//      not declare fails the run), so a green run has run everything it says it ran.
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { SMTPServer } from "smtp-server";
import { parsePlacement } from "../e2e/placement.mjs";
import { serverNodeArgs } from "../server/env.mjs";
import { postgresAdminUrl } from "../server/test-support/postgres-admin-url.mjs";

/** @typedef {NodeJS.ProcessEnv} Env */
/** @typedef {"sqlite" | "postgres"} DbKind */
/** @typedef {{ baseUrl: string, stop: () => boolean }} RunningServer */
/**
 * A setting's database: its URL (null: a SQLite file the setting makes and migrates), and the
 * migrated PostgreSQL template it is a copy of, if it is one (then it needs no migrating).
 * @typedef {{ url: string | null, template?: string }} Database
 */
/**
 * The JSON line a test peer prints first: where it listens, and what a client needs of it (a
 * witness's verifier key, a TSA's root certificate).
 * @typedef {{ url: string, vkey?: string, root_pem?: string }} PeerLine
 */

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const totals = { passed: 0, failed: 0, skipped: 0 };
/**
 * Each failed test's name and the start of its message, repeated just before the last line: a log's tail names what failed.
 * @type {string[]}
 */
const failures = [];
/**
 * Every skipped test: the database setting it ran on ("sqlite", "postgres", or "unit"), the run that
 * counted it, its file and name, and the reason its skip stated (null: it stated none).
 * @type {{ setting: string, label: string, file: string, test: string, reason: string | null }[]}
 */
const skips = [];
/**
 * Each retry the REST client made of a 503 not_yet_witnessed (e2e/api/helpers.ts api), one line each.
 * @type {string[]}
 */
const retries = [];
/** @param {number} since a Date.now() */
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const runStarted = Date.now();
/** @param {unknown} text */
const plain = (text) => String(text).replace(/\u001b\[[0-9;]*m/g, "");
/**
 * @param {string} label
 * @param {string} name
 * @param {string} message
 */
const noteFailure = (label, name, message) =>
  failures.push(`[${label}] ${name}\n    ${plain(message).slice(0, 1200).replace(/\n/g, "\n    ")}`);
/** @param {Date} now milliseconds from `now` to 01:00 UTC on the 15th of its month */
const midMonthOffset = (now) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 15, 1) - now.getTime();
/** @type {Env} */
const baseEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_ENV: "production",
  HALLMARK_MASTER_KEY: crypto.randomBytes(32).toString("hex"),
  // /metrics is served only with a token; the operations tests read it.
  HALLMARK_METRICS_TOKEN: crypto.randomBytes(24).toString("hex"),
  // The calendar quotas and budgets count in (server/limits/calendar.ts), for servers and tests
  // alike: 01:00 UTC on the 15th of this month when the run starts, so that no UTC day or month
  // ends while the suite counts mints and requests.
  HALLMARK_TEST_CLOCK_OFFSET_MS: process.env.HALLMARK_TEST_CLOCK_OFFSET_MS ?? String(midMonthOffset(new Date())),
};
/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {Env} [env]
 */
function sh(cmd, args, env = baseEnv) {
  execFileSync(cmd, args, { cwd: root, stdio: "inherit", env });
}

/**
 * sh without blocking this process, which also hosts the SMTP catchers that running tests read mail from.
 * @param {string} cmd
 * @param {string[]} args
 * @param {Env} [env]
 * @returns {Promise<void>}
 */
function shAsync(cmd, args, env = baseEnv) {
  return new Promise((resolve, reject) =>
    spawn(cmd, args, { cwd: root, stdio: "inherit", env }).on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${signal ?? code}`)),
    ),
  );
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * @param {Env} env
 * @returns {Promise<RunningServer>}
 */
async function startServer(env) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Started with the node flags `npm start` gives it (the heap limit).
  const child = spawn(
    process.execPath,
    [...serverNodeArgs(env), path.join(root, "scripts/serve.mjs"), "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: { ...env, PORT: String(port), HALLMARK_BASE_URL: baseUrl },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  children.add(child);
  child.on("exit", () => children.delete(child));
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${baseUrl}/v1/log`);
      if (res.ok) return { baseUrl, stop: () => child.kill("SIGTERM") };
    } catch {}
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become ready in 30 s");
}

const onlyFiles = (process.env.HALLMARK_TEST_FILES ?? "").split(/\s+/).filter(Boolean);
const suites = process.env.HALLMARK_TEST_SUITES ?? "rest web";
// Chromium's headless shell (the old headless mode, which Playwright itself runs headless tests
// in) draws no browser UI: the browser suite takes about 0.6 of the time it takes in the full
// browser on two cores. The full browser serves where the shell is not installed.
const chromium =
  process.env.HALLMARK_CHROMIUM ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p)) ??
  "/usr/bin/chromium";
const dbs = process.env.HALLMARK_TEST_DBS ?? "sqlite postgres";
const distDir = process.env.HALLMARK_DIST_DIR || ".next";
const strict = process.env.HALLMARK_TEST_STRICT === "1";

/**
 * A suite that cannot run here: a failure under HALLMARK_TEST_STRICT, else a skip; either way said why.
 * @param {string} label
 * @param {string} why
 */
function cannotRun(label, why) {
  if (strict) {
    totals.failed += 1;
    noteFailure(label, "the suite could not run", why);
    console.log(`[test] ${label}: FAILED, it could not run: ${why}`);
  } else {
    totals.skipped += 1;
    console.log(`[test] ${label}: SKIPPED (counted as one skip): ${why}`);
  }
}

/**
 * Runs Vitest without blocking this process: it also hosts the SMTP server the tests read mail from.
 * @param {string} project
 * @param {Env} env
 * @param {string} label
 * @param {string[]} [files]
 */
async function vitest(project, env, label, files = []) {
  const started = Date.now();
  const out = path.join(os.tmpdir(), `hallmark-vitest-${label}-${process.pid}.json`);
  const skipsOut = path.join(os.tmpdir(), `hallmark-vitest-${label}-${process.pid}.skips.json`);
  const retryLog = path.join(os.tmpdir(), `hallmark-vitest-${label}-${process.pid}.retries.jsonl`);
  fs.rmSync(retryLog, { force: true });
  const args = [
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
    "--reporter=./scripts/test-skips-reporter.mjs",
    ...files,
  ];
  // Failures are counted from the report below; an exit code that says more (an error outside any
  // test, such as an unhandled rejection, which the report does not count) adds one.
  const code = await /** @type {Promise<number | null>} */ (
    new Promise((resolve) =>
      spawn("node_modules/.bin/vitest", args, {
        cwd: root,
        stdio: "inherit",
        env: { ...env, HALLMARK_TEST_SKIPS_OUT: skipsOut, HALLMARK_TEST_RETRY_LOG: retryLog },
      }).on("exit", (c, signal) => resolve(signal ? 1 : c)),
    )
  );
  try {
    /** @type {import("vitest/reporters").JsonTestResults} */
    const r = JSON.parse(fs.readFileSync(out, "utf8"));
    totals.passed += r.numPassedTests;
    // A run that found no test, or failed outside any test (a suite that did not load), counts once.
    const brokenRun = r.numTotalTestSuites === 0 || ((!r.success || code !== 0) && r.numFailedTests === 0);
    totals.failed += r.numFailedTests + (brokenRun ? 1 : 0);
    if (brokenRun && r.numTotalTestSuites > 0)
      noteFailure(
        label,
        "the run",
        `Vitest exited with ${code} with no failed test: an error outside any test (its output above says which)`,
      );
    totals.skipped += r.numPendingTests + r.numTodoTests;
    for (const file of r.testResults ?? []) {
      for (const t of file.assertionResults ?? [])
        if (t.status === "failed") noteFailure(label, `${path.relative(root, file.name)} > ${t.fullName}`, t.failureMessages?.[0] ?? "");
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"))
        noteFailure(label, path.relative(root, file.name), file.message ?? "the file failed outside any test");
    }
    console.log(`[test] ${label}: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${seconds(started)})`);
  } catch {
    totals.failed += 1;
    console.log(`[test] ${label}: the run produced no report (counted as a failure)`);
  }
  // The skips with their reasons (the JSON report has no reasons), and the REST client's retries.
  const setting = project === "unit" ? "unit" : (env.HALLMARK_TEST_DB ?? "sqlite");
  try {
    /** @type {{ file: string, test: string, reason: string | null }[]} */
    const found = JSON.parse(fs.readFileSync(skipsOut, "utf8"));
    for (const x of found) skips.push({ setting, label, file: path.relative(root, x.file), test: x.test, reason: x.reason });
  } catch {}
  if (fs.existsSync(retryLog)) {
    /** @type {{ file: string, test: string, method: string, path: string }[]} */
    const lines = fs
      .readFileSync(retryLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    for (const x of lines) retries.push(`[${label}] ${x.file} > ${x.test}: ${x.method} ${x.path}`);
    if (lines.length) console.log(`[test] ${label}: the REST client retried ${lines.length} 503 not_yet_witnessed answer(s)`);
    fs.rmSync(retryLog, { force: true });
  }
  fs.rmSync(skipsOut, { force: true });
}

// Most REST files spend their time waiting (on the server, a clock, a child process): the suite
// runs in lanes, each a Vitest process of its own, side by side; each file declares its lane and
// its databases (e2e/placement.mjs). A side lane's file appends nothing to the suite's log (tests
// in the main lane check that a refused request leaves its size as it was): it has a log of its
// own, or it only reads the suite's, or its requests are on keys of its own and append nothing
// (the REST client refuses the appends a side lane's file sends). The main lane holds the rest.
// The alone lane runs afterwards, its files one at a time: each accounts for every row each table
// gains while it runs. The second server's lane runs beside all of them on a server, database,
// log, witnesses and mail of its own (suite "<db>-b"): files that append to the log, the longest
// of them, so the main lane is not the whole suite's length.

/**
 * @typedef {import("../e2e/placement.mjs").Placement & { file: string }} PlacedFile
 */

/**
 * Every REST file (each .test.ts file under e2e/api) with the placement it declares; `wrong` says, for each
 * file whose declaration is missing or malformed, what is wrong with it.
 */
function restPlacements() {
  const files = fs
    .readdirSync(path.join(root, "e2e/api"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `e2e/api/${f}`)
    .sort();
  /** @type {PlacedFile[]} */
  const placed = [];
  /** @type {string[]} */
  const wrong = [];
  for (const file of files) {
    try {
      placed.push({ file, ...parsePlacement(fs.readFileSync(path.join(root, file), "utf8")) });
    } catch (err) {
      wrong.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { placed, wrong };
}

/**
 * The REST suite on one setting's first server: the main lane and the side lanes side by side,
 * then the alone lane.
 * @param {Env} env
 * @param {string} label
 * @param {PlacedFile[]} files the files declared for this database, outside the second server's lane
 */
async function restSuite(env, label, files) {
  /** @param {(lane: string) => boolean} which */
  const inLanes = (which) => files.filter((f) => which(f.lane)).map((f) => f.file);
  const sideLanes = [...new Set(files.map((f) => f.lane).filter((l) => l.startsWith("side-")))].sort();
  const main = inLanes((l) => l === "main");
  await Promise.all([
    main.length ? vitest("rest", env, label, main) : undefined,
    ...sideLanes.map((lane) =>
      vitest(
        "rest",
        env,
        `${label}-${lane}`,
        inLanes((l) => l === lane),
      ),
    ),
  ]);
  // The fuzz suite on PostgreSQL sends a third of its requests per target (HALLMARK_FUZZ_PER_TARGET):
  // there its subject is hostile values reaching the database's columns, which every target still
  // gets; the SQLite run sends them all.
  const aloneEnv = env.HALLMARK_TEST_DB === "postgres" ? { HALLMARK_FUZZ_PER_TARGET: "20", ...env } : env;
  const alone = inLanes((l) => l === "alone");
  if (alone.length) await vitest("rest", aloneEnv, `${label}-alone`, alone);
}

/**
 * The browser suite (Playwright + Chromium), counted from its JSON report.
 * @param {Env} env
 * @param {string} label
 */
async function playwright(env, label) {
  if (!fs.existsSync(chromium)) return cannotRun(`${label} web`, `no Chromium at ${chromium} (apt-get install -y chromium-headless-shell)`);
  const started = Date.now();
  const out = path.join(os.tmpdir(), `hallmark-pw-${label}-${process.pid}.json`);
  const extra = (process.env.HALLMARK_TEST_WEB_ARGS ?? "").split(/\s+/).filter(Boolean);
  const args = ["test", "--config", "e2e/playwright.config.ts", ...extra];
  await new Promise((resolve) =>
    spawn("node_modules/.bin/playwright", args, {
      cwd: root,
      stdio: "inherit",
      env: {
        ...env,
        HALLMARK_CHROMIUM: chromium,
        HALLMARK_PW_JSON: out,
        HALLMARK_PW_OUTPUT: path.join(root, "test-results", `web-${path.basename(distDir)}`),
      },
    }).on("exit", resolve),
  );
  try {
    /** @type {import("@playwright/test/reporter").JSONReport} */
    const r = JSON.parse(fs.readFileSync(out, "utf8"));
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = r.stats ?? {};
    // A run that found no test, or broke outside any test, counts as one failure.
    const broken = expected + unexpected + flaky === 0 || (r.errors?.length ?? 0) > 0;
    totals.passed += expected;
    totals.failed += unexpected + flaky + (broken ? 1 : 0);
    totals.skipped += skipped;
    /**
     * @param {import("@playwright/test/reporter").JSONReportSuite} suite
     * @param {string[]} titles
     */
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? []) {
          if (t.status === "unexpected" || t.status === "flaky")
            noteFailure(`${label} web`, [...titles, spec.title].join(" > "), t.results?.find((x) => x.error)?.error?.message ?? t.status);
          // A skip's reason is the description its test.skip(condition, description) gave.
          if (t.status === "skipped")
            skips.push({
              setting: env.HALLMARK_TEST_DB ?? "sqlite",
              label: `${label} web`,
              file: path.relative(root, path.resolve(root, "e2e/web", spec.file)),
              test: [...titles.slice(1), spec.title, `(${t.projectName})`].join(" > "),
              reason: t.annotations?.find((a) => a.type === "skip")?.description ?? null,
            });
        }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of r.suites ?? []) walk(suite, [suite.title]);
    for (const e of r.errors ?? []) noteFailure(`${label} web`, "the run", e.message ?? JSON.stringify(e));
    console.log(
      `[test] ${label} web: ${expected} passed, ${unexpected + flaky} failed${broken ? " (the run itself broke)" : ""} (${seconds(started)})`,
    );
  } catch {
    totals.failed += 1;
    console.log(`[test] ${label} web: the run produced no report (counted as a failure)`);
  }
}

/**
 * @param {Env} env
 * @param {string} label
 */
async function audit(env, label) {
  try {
    await shAsync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/audit-log.ts"], env);
    totals.passed += 1;
    console.log(`[test] ${label}: log audit passed`);
  } catch {
    totals.failed += 1;
    console.log(`[test] ${label}: log audit FAILED`);
  }
}

/**
 * A test peer (a tsx entry point under e2e/) in its own process, stopped with the run. Resolves
 * with the JSON line it prints first (where it listens, and what a client needs of it).
 * @param {string} what
 * @param {string} script
 * @param {string[]} args
 */
async function startPeer(what, script, args) {
  const port = await freePort();
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [script, "--listen", `127.0.0.1:${port}`, "--test-control", ...args], {
    cwd: root,
    env: baseEnv,
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  const line = await /** @type {Promise<string>} */ (
    new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (/** @type {Buffer} */ d) => {
        out += d;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      child.on("exit", (code) => reject(new Error(`the ${what} exited with ${code}`)));
    })
  );
  /** @type {PeerLine} */
  const peer = JSON.parse(line);
  return { ...peer, stop: () => child.kill("SIGTERM") };
}

/**
 * A test witness (e2e/witness: C2SP tlog-witness, with test controls): its URL and verifier key.
 * @param {string} name
 * @param {string} algorithm
 */
async function startWitness(name, algorithm) {
  const witness = await startPeer("test witness", "e2e/witness/main.ts", ["--name", name, "--algorithm", algorithm]);
  return { ...witness, name };
}

/** The test TSA (e2e/tsa: RFC 3161 by OpenSSL's `ts`, with test controls): its URL and the file of the root its tokens chain to. */
const startTsa = () => startPeer("test TSA", "e2e/tsa/main.ts", []);

/**
 * Two witnesses, one Ed25519 and one ML-DSA-44, and the policy naming them: either one is a
 * quorum, so a test can take one down and the log stays witnessed.
 * @param {string} dir
 */
async function startWitnesses(dir) {
  const witnesses = [await startWitness("witness.test/w1", "ed25519"), await startWitness("witness.test/w2", "ml-dsa-44")];
  const file = path.join(dir, "witness-policy.txt");
  fs.writeFileSync(
    file,
    `${witnesses.map((w, i) => `witness w${i + 1} ${w.vkey} ${w.url}`).join("\n")}\ngroup any-witness any w1 w2\nquorum any-witness\n`,
  );
  return {
    file,
    witnesses,
    stop: () => {
      for (const w of witnesses) w.stop();
    },
  };
}

/**
 * A real SMTP server catching the mail Hallmark sends: each message is written, raw, to
 * `dir` (the tests read the verification links from there).
 * @param {string} dir
 */
async function startMailCatcher(dir) {
  const port = await freePort();
  // Names sort in the order messages arrived, two in one millisecond included (tests read "the first").
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      /** @type {Buffer[]} */
      const chunks = [];
      stream.on("data", (/** @type {Buffer} */ c) => chunks.push(c));
      stream.on("end", () => {
        // Written aside, then renamed: a reader never sees (and caches) half a message.
        const file = path.join(dir, `${Date.now()}-${String(++received).padStart(8, "0")}-${crypto.randomUUID()}.eml`);
        fs.writeFileSync(`${file}.part`, Buffer.concat(chunks));
        fs.renameSync(`${file}.part`, file);
        done();
      });
    },
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(port, "127.0.0.1", resolve)));
  return { url: `smtp://127.0.0.1:${port}`, stop: () => /** @type {Promise<void>} */ (new Promise((r) => server.close(r))) };
}

async function redisUrlIfReachable() {
  const url = process.env.HALLMARK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return url;
  } catch {
    // The shared-limits tests need the instances to share their counters.
    cannotRun("redis", `no Redis at ${url}: rate limits on the multi-instance run stay per instance`);
    return undefined;
  } finally {
    client.disconnect();
  }
}

/**
 * One server setting (its own data directory, mail catcher, witnesses, and on SQLite a TSA), its
 * instances on `database` (its URL null: a SQLite file in the data directory), `run` given the
 * tests' environment, then the log audit. `kind` is the database (sqlite or postgres), `label` names the
 * setting in the output.
 * @param {string} label
 * @param {DbKind} kind
 * @param {Database} database
 * @param {number} instances
 * @param {(env: Env) => Promise<void>} run
 */
async function suite(label, kind, database, instances, run) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-${label}-`));
  const databaseUrl = database.url ?? `file:${path.join(dataDir, "hallmark.db")}`;
  const mailDir = path.join(dataDir, "caught-mail");
  fs.mkdirSync(mailDir);
  const mail = await startMailCatcher(mailDir);
  const witnessing = await startWitnesses(dataDir);
  // The embedded default runs with a TSA (RFC 3161), stamping once a second; the PostgreSQL
  // run without one, as a deployment without HALLMARK_TSA_URL does.
  const tsa = kind === "sqlite" ? await startTsa() : undefined;
  // Several instances share their rate-limit counters through Redis, as in production.
  const redisUrl = instances > 1 ? await redisUrlIfReachable() : undefined;
  const env = {
    ...baseEnv,
    DATABASE_URL: databaseUrl,
    HALLMARK_DATA_DIR: dataDir,
    // Unique per setting and run: it also prefixes the Redis counters.
    HALLMARK_LOG_ORIGIN: `hallmark-test/${label}-${process.pid}`,
    HALLMARK_SMTP_URL: mail.url,
    HALLMARK_TEST_MAILDIR: mailDir,
    // The suite stands where a reverse proxy would: it names each request's client in
    // X-Forwarded-For (the throttling tests need clients of their own), as one trusted proxy does.
    HALLMARK_TRUSTED_PROXIES: "1",
    // New-key notices gather into a digest for 2 s instead of a minute, so the tests see digests.
    HALLMARK_KEY_NOTICE_DIGEST_SECONDS: "2",
    HALLMARK_WITNESS_POLICY: witnessing.file,
    ...(tsa ? { HALLMARK_TSA_URL: tsa.url, HALLMARK_TSA_CERT: tsa.root_pem, HALLMARK_TSA_INTERVAL: "1" } : {}),
    ...(redisUrl ? { HALLMARK_REDIS_URL: redisUrl } : {}),
  };
  if (!database.template) await shAsync("node", ["scripts/prisma.mjs", "deploy"], env);
  /** @type {RunningServer[]} */
  const servers = [];
  try {
    for (let i = 0; i < instances; i++) servers.push(await startServer(env));
    // Witnesses learn the log's key out of band, as real ones do: here, once the log has made it.
    // instances ≥ 1: there is a first server.
    const first = /** @type {RunningServer} */ (servers[0]);
    /** @type {{ verifier_key: string }} */
    const { verifier_key } = await (await fetch(`${first.baseUrl}/v1/log`)).json();
    for (const w of witnessing.witnesses) await fetch(`${w.url}/_test/trust`, { method: "POST", body: verifier_key });
    const testEnv = {
      ...env,
      HALLMARK_TEST_BASE_URLS: servers.map((s) => s.baseUrl).join(","),
      HALLMARK_TEST_DB: kind,
      ...(database.template ? { HALLMARK_TEST_PG_TEMPLATE: database.template } : {}),
      HALLMARK_TEST_WITNESSES: JSON.stringify(witnessing.witnesses.map(({ name, url, vkey }) => ({ name, url, vkey }))),
      ...(tsa ? { HALLMARK_TEST_TSA: JSON.stringify({ url: tsa.url, root_pem: tsa.root_pem }) } : {}),
    };
    await run(testEnv);
  } finally {
    for (const s of servers) s.stop();
    witnessing.stop();
    tsa?.stop();
    await mail.stop();
  }
  await audit(env, label);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The REST suite on one database, its files on two servers at once; on SQLite, the browser suite afterwards.
 * @param {DbKind} kind
 * @param {(label: string) => Promise<Database>} databaseFor
 * @param {number} instances
 * @param {PlacedFile[]} files the REST files of this run declared for this database
 */
async function databaseSuites(kind, databaseFor, instances, files) {
  const first = files.filter((f) => f.lane !== "second-server");
  const second = files.filter((f) => f.lane === "second-server").map((f) => f.file);
  // The browser suite runs once, on the embedded default: the pages sit on the same procedures.
  const web = kind === "sqlite" && suites.includes("web");
  await Promise.all([
    (first.length || web) &&
      suite(kind, kind, await databaseFor(kind), instances, async (env) => {
        if (first.length) await restSuite(env, kind, first);
        if (web) await playwright(env, kind);
      }),
    second.length && suite(`${kind}-b`, kind, await databaseFor(`${kind}-b`), instances, (env) => vitest("rest", env, `${kind}-b`, second)),
  ]);
}

/**
 * @typedef {{ admin: pg.Client, adminUrl: string, template: string, names: string[] }} PostgresServer
 * The admin connection, the template database with the migrations applied, and every database
 * made for the run (dropped at its end).
 */

/**
 * Connects to the PostgreSQL server and makes the run's template: the migrations applied once, to
 * the database each setting's database, and each test's own, is a copy of (CREATE DATABASE …
 * TEMPLATE, a file copy), instead of Prisma's migration engine running again on each of them (its
 * cost: docs/performance.md). Started before the unit suite and awaited after it, so that the
 * migrating overlaps the unit suite's run. Resolves with why when it cannot.
 * @returns {Promise<PostgresServer | { why: string }>}
 */
async function postgresServer() {
  const adminUrl = postgresAdminUrl;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { why: `no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, "//")} (${why})` };
  }
  const template = `hallmark_test_template_${Date.now()}_${process.pid}`;
  /** @type {PostgresServer} */
  const server = { admin, adminUrl, template, names: [] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-pg-template-"));
  try {
    await admin.query(`CREATE DATABASE ${template}`);
    server.names.push(template);
    await shAsync("node", ["scripts/prisma.mjs", "deploy"], {
      ...baseEnv,
      DATABASE_URL: databaseUrl(server, template),
      HALLMARK_DATA_DIR: dir,
    });
  } catch (err) {
    await releasePostgres(server);
    return { why: `the migrations did not apply to a PostgreSQL template (${err instanceof Error ? err.message : String(err)})` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return server;
}

/**
 * @param {PostgresServer} server
 * @param {string} name
 */
function databaseUrl(server, name) {
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** @param {PostgresServer} server */
async function releasePostgres(server) {
  for (const name of server.names) await server.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await server.admin.end().catch(() => {});
}

/**
 * @param {PlacedFile[]} files the REST files of this run declared for PostgreSQL
 * @param {PostgresServer | { why: string }} server
 */
async function postgresSuites(files, server) {
  if ("why" in server) return cannotRun("postgres", server.why);
  const { admin, template } = server;
  await databaseSuites(
    "postgres",
    async (label) => {
      const name = `hallmark_test_${label.replace(/\W/g, "_")}_${Date.now()}_${process.pid}`;
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      server.names.push(name);
      return { url: databaseUrl(server, name), template };
    },
    2,
    files,
  );
}

/**
 * `npm test -- --list`: one line per test file, with where it runs: a REST file as it declares it
 * (e2e/placement.mjs), a browser spec and a unit file as their suites run them.
 * @param {PlacedFile[]} placed
 */
function listFiles(placed) {
  /** @param {string} dir @param {RegExp} name */
  const under = (dir, name) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => name.test(f) && !f.split(path.sep).includes("node_modules"))
      .map((f) => path.join(dir, f))
      .sort();
  /** @type {string[][]} */
  const rows = [
    ...placed.map((p) => [p.file, "rest", `db=${p.db.join(",")}`, `lane=${p.lane}`, p.witnessing ? "witnessing" : ""]),
    ...under("e2e/web", /\.spec\.ts$/).map((f) => [f, "web", "db=sqlite", "lane=browser", ""]),
    ...["lib", "server", "scripts"]
      .flatMap((d) => under(d, /\.test\.ts$/))
      .map((f) => [f, "unit", "", "lane=unit", f.endsWith(".pg.test.ts") ? "needs=postgres" : ""]),
  ];
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const r of rows)
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}

/**
 * The skips a run may count (e2e/skips.txt), by setting, file and stated reason: how many.
 * @returns {Map<string, number>}
 */
function declaredSkips() {
  /** @type {Map<string, number>} */
  const declared = new Map();
  for (const line of fs.readFileSync(path.join(root, "e2e/skips.txt"), "utf8").split("\n")) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const m = /^(\S+)\s+(\S+)\s+(\d+)\s+(.+)$/.exec(line.trim());
    if (!m) throw new Error(`e2e/skips.txt: "${line}" is not "<setting> <file> <count> <reason>"`);
    declared.set(`${m[1]} ${m[2]} "${m[4]}"`, Number(m[3]));
  }
  return declared;
}

/**
 * Prints every skipped test with its reason. Under HALLMARK_TEST_STRICT, holds them to
 * e2e/skips.txt: a skip that states no reason, or more skips of a file and reason than declared,
 * fails the run; so does, in a run of everything, a declared skip that did not happen (the list
 * would otherwise make room for a new one).
 * @param {boolean} everything the run ran every suite on both databases
 */
function checkSkips(everything) {
  /** @type {Map<string, string[]>} */
  const seen = new Map();
  /** @type {string[]} */
  const problems = [];
  for (const x of skips) {
    console.log(`[test] skipped in ${x.label}: ${x.file} > ${x.test}: ${x.reason ?? "(no reason stated)"}`);
    if (x.reason === null) problems.push(`${x.file} > ${x.test} (${x.setting}) was skipped without a reason: ctx.skip(reason) says why`);
    else {
      const key = `${x.setting} ${x.file} "${x.reason}"`;
      seen.set(key, [...(seen.get(key) ?? []), x.test]);
    }
  }
  /** @type {Map<string, number>} */
  let declared;
  try {
    declared = declaredSkips();
  } catch (err) {
    problems.push(err instanceof Error ? err.message : String(err));
    declared = new Map();
  }
  for (const [key, tests] of seen) {
    const allowed = declared.get(key) ?? 0;
    if (tests.length > allowed)
      problems.push(`${tests.length} skip(s) of ${key}, and e2e/skips.txt declares ${allowed}: ${tests.join("; ")}`);
  }
  if (everything)
    for (const [key, count] of declared)
      if ((seen.get(key)?.length ?? 0) < count)
        problems.push(`e2e/skips.txt declares ${count} skip(s) of ${key}, and the run had ${seen.get(key)?.length ?? 0}`);
  for (const p of problems) {
    if (strict) {
      totals.failed += 1;
      noteFailure("skips", "the skips e2e/skips.txt declares", p);
    } else console.log(`[test] skips: ${p} (a failure under HALLMARK_TEST_STRICT)`);
  }
}

async function main() {
  const { placed, wrong } = restPlacements();
  if (process.argv.includes("--list")) {
    listFiles(placed);
    for (const w of wrong) console.log(`[test] no placement: ${w}`);
    process.exit(wrong.length ? 1 : 0);
  }
  // A file whose place is not stated runs nowhere: the run fails before it builds anything.
  if (wrong.length) {
    totals.failed += wrong.length;
    for (const w of wrong) noteFailure("placement", "a REST file declares no place (e2e/placement.mjs)", w);
    return;
  }
  const unknown = onlyFiles.filter((f) => !placed.some((p) => p.file === f));
  if (unknown.length) {
    totals.failed += 1;
    noteFailure("files", "HALLMARK_TEST_FILES", `${unknown.join(", ")}: not a REST file (e2e/api/**/*.test.ts)`);
    return;
  }
  const chosen = onlyFiles.length ? placed.filter((p) => onlyFiles.includes(p.file)) : placed;
  const rest = suites.includes("rest");
  /** @param {DbKind} kind */
  const restOn = (kind) => (rest ? chosen.filter((p) => p.db.includes(kind)) : []);
  for (const kind of /** @type {DbKind[]} */ (["sqlite", "postgres"]))
    if (onlyFiles.length && dbs.includes(kind))
      for (const p of chosen)
        if (!p.db.includes(kind)) console.log(`[test] ${p.file} is declared db=${p.db.join(",")}: not run on ${kind}`);
  const sqlite = dbs.includes("sqlite") && (restOn("sqlite").length > 0 || suites.includes("web"));
  const postgres = dbs.includes("postgres") && restOn("postgres").length > 0;
  // "unit" alone needs no build and no server.
  if ((sqlite || postgres) && (process.env.HALLMARK_SKIP_BUILD !== "1" || !fs.existsSync(path.join(root, distDir, "BUILD_ID"))))
    sh("node", ["scripts/build.mjs"]);
  const postgresReady = postgres ? postgresServer() : undefined;
  try {
    if (onlyFiles.length === 0 && (rest || suites.includes("unit"))) await vitest("unit", baseEnv, "unit");
    if (sqlite) await databaseSuites("sqlite", async () => ({ url: null }), 1, restOn("sqlite"));
    if (postgresReady) await postgresSuites(restOn("postgres"), await postgresReady);
  } finally {
    const server = await postgresReady;
    if (server && !("why" in server)) await releasePostgres(server);
  }
  const everything =
    onlyFiles.length === 0 &&
    rest &&
    suites.includes("web") &&
    dbs.includes("sqlite") &&
    dbs.includes("postgres") &&
    !process.env.HALLMARK_TEST_WEB_ARGS;
  checkSkips(everything);
  if (retries.length)
    console.log(`[test] the REST client retried ${retries.length} 503 not_yet_witnessed answer(s):\n    ${retries.join("\n    ")}`);
  else if (rest) console.log("[test] the REST client retried no 503 not_yet_witnessed answer");
}

const cleanup = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", () => (cleanup(), process.exit(130)));
main()
  .catch((/** @type {unknown} */ err) => {
    console.error(err);
    totals.failed += 1;
  })
  .finally(() => {
    cleanup();
    const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
    if (failures.length) console.log(`\n[test] what failed:\n${failures.join("\n")}\n`);
    console.log(`[test] the run took ${seconds(runStarted)}`);
    console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
    process.exit(totals.failed ? 1 : 0);
  });
