// Starts the production server (scripts/serve.mjs) on a data directory for the benchmark, and stops it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../lib/testing/free-port";
import { serverNodeArgs } from "../server/env.mjs";

export { freePort };

export const DIST_DIR = process.env.HALLMARK_DIST_DIR || ".next-bench";

/** The environment of a benchmark server on `dataDir`: its SQLite file, or `databaseUrl` (PostgreSQL). */
export function envFor(dataDir: string, databaseUrl = `file:${dataDir}/hallmark.db`): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    HALLMARK_BENCH: "1",
    HALLMARK_DIST_DIR: DIST_DIR,
    HALLMARK_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    HALLMARK_LOG_ORIGIN: "hallmark-bench",
    // The load comes from one address and one account: the bench measures what a lookup, a
    // certificate or an export costs, not their budgets' refusals.
    HALLMARK_LOOKUPS_PER_MINUTE: "1000000",
    HALLMARK_CERTIFICATES_PER_MINUTE: "1000000",
    HALLMARK_EXPORTS_PER_HOUR: "1000000",
  };
}

export function migrate(dataDir: string, databaseUrl?: string): void {
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], { stdio: "inherit", env: envFor(dataDir, databaseUrl) });
}

export interface Server {
  url: string;
  /** The server process, for reading its memory (/proc/<pid>/status). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Hallmark's server (scripts/serve.mjs: Next.js behind the gate), or with `bare` plain
 * `next start` on the same build, to measure what the gate costs. `nodeArgs` go to node before
 * the script (e.g. --heapsnapshot-signal=SIGUSR2), after the heap limit `npm start` sets.
 */
export async function startServer(
  dataDir: string,
  opts: { bare?: boolean; databaseUrl?: string; env?: Record<string, string>; root?: string; logFile?: string; nodeArgs?: string[] } = {},
): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...envFor(dataDir, opts.databaseUrl), ...opts.env, PORT: String(port), HALLMARK_BASE_URL: url };
  // As `npm start` runs it (the heap limit), then any flags of the caller's, which win.
  const nodeArgs = [...serverNodeArgs(env), ...(opts.nodeArgs ?? [])];
  const [cmd, args] = opts.bare
    ? ["node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"]]
    : [process.execPath, [...nodeArgs, "scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"]];
  // `root`: another checkout with its own build (bench --against), served from there.
  const child: ChildProcess = spawn(cmd, args, {
    cwd: opts.root,
    env,
    // The log lines go to a file, as a deployment's would, when one is named.
    stdio: ["ignore", opts.logFile ? fs.openSync(opts.logFile, "a") : "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/v1/log`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
