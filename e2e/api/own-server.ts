// A Hallmark server process a test starts itself (beside the suite's), on the suite's database
// or one of its own: started as `npm start` does (scripts/start.mjs) or as the suite does
// (scripts/serve.mjs), its JSON log lines collected, stopped with a signal or killed.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { postgresAdminUrl } from "../../server/test-support/postgres-admin-url.mjs";
import { freePort } from "../../lib/testing/free-port";

export { freePort } from "../../lib/testing/free-port";
import { expect } from "vitest";
import { seedOrg } from "../accounts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A SQLite configuration of its own in `dataDir`: no witnesses or TSA (they follow the suite's
 * log), the suite's master key.
 */
export function ownSqliteEnv(dataDir: string, label: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `file:${path.join(dataDir, "hallmark.db")}`,
    HALLMARK_DATA_DIR: dataDir,
    HALLMARK_LOG_ORIGIN: `hallmark-test/${label}-${process.pid}`,
  };
  for (const name of ["HALLMARK_WITNESS_POLICY", "HALLMARK_TSA_URL", "HALLMARK_TSA_CERT", "HALLMARK_TSA_INTERVAL"]) delete env[name];
  return env;
}

/**
 * Gives `env` a database of its own on the run's database (HALLMARK_TEST_DB): on PostgreSQL a new
 * database `name`, a copy of the run's migrated template where there is one; on SQLite the file
 * ownSqliteEnv named. Migrated either way. Answers the function that drops it.
 */
export async function ownDatabase(env: NodeJS.ProcessEnv, name: string): Promise<() => Promise<void>> {
  const template = process.env.HALLMARK_TEST_PG_TEMPLATE;
  const onPostgres = (process.env.HALLMARK_TEST_DB ?? "sqlite") === "postgres";
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresAdminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  if (onPostgres) {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
  }
  if (!onPostgres || !template) await promisify(execFile)("node", ["scripts/prisma.mjs", "deploy"], { env });
  return async () => {
    if (onPostgres) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

export type LogLine = Record<string, unknown> & { msg: string; level: string };

export class OwnServer {
  readonly lines: LogLine[] = [];
  /** Everything the process wrote, raw (to look for what must never be there). */
  output = "";
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly startedAt: number,
  ) {
    let partial = "";
    const take = (d: Buffer) => {
      const text = d.toString();
      this.output += text;
      partial += text;
      const parts = partial.split("\n");
      partial = parts.pop()!;
      for (const p of parts) {
        try {
          this.lines.push(JSON.parse(p) as LogLine);
        } catch {}
      }
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    // "close": after the process ended and its output was read to the end.
    this.exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Starts `scripts/<script>.mjs` on `port` (a free one by default) with `env`, `nodeArgs` going to
   * node before the script; resolves once the process runs. Its base URL is `baseUrl(port)` when
   * given, else the address it listens on.
   */
  static async start(
    env: NodeJS.ProcessEnv,
    opts: { script?: "serve" | "start"; port?: number; nodeArgs?: string[]; baseUrl?: (port: number) => string } = {},
  ): Promise<OwnServer> {
    const port = opts.port ?? (await freePort());
    const url = opts.baseUrl?.(port) ?? `http://127.0.0.1:${port}`;
    const args = [...(opts.nodeArgs ?? []), `scripts/${opts.script ?? "serve"}.mjs`, "-p", String(port), "-H", "127.0.0.1"];
    const child = spawn(process.execPath, args, {
      env: { ...env, PORT: String(port), HALLMARK_BASE_URL: url, HALLMARK_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new OwnServer(child, port, performance.now());
  }

  /** Waits until /readyz answers 200; resolves with the milliseconds since the process started. */
  async ready(timeoutMs = 60_000): Promise<number> {
    const until = performance.now() + timeoutMs;
    while (performance.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`the server exited with ${this.child.exitCode}:\n${this.output.slice(-2000)}`);
      try {
        if ((await fetch(`${this.url}/readyz`)).status === 200) return performance.now() - this.startedAt;
      } catch {}
      await sleep(20);
    }
    throw new Error(`the server was not ready in ${timeoutMs} ms:\n${this.output.slice(-2000)}`);
  }

  /** The first log line that `match` accepts, waiting for it (lines are flushed at least every second). */
  async line(match: (l: LogLine) => boolean, timeoutMs = 5_000): Promise<LogLine> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(match);
      if (found) return found;
      if (performance.now() > until) throw new Error(`no such log line in ${timeoutMs} ms:\n${this.output.slice(-2000)}`);
      await sleep(50);
    }
  }

  /** Sends `signal` and resolves with how the process ended. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** An organisation (made by the CLI on the database of `env`) with an issuer, on a server of a test's own at `url`. */
export async function orgWithIssuerOn(url: string, env: NodeJS.ProcessEnv, name: string): Promise<{ key: string; issuerId: string }> {
  const key = (await seedOrg({ name, env })).apiKey;
  const res = await fetch(`${url}/v1/issuers`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ name, domain: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example.org` }),
  });
  expect(res.status).toBe(201);
  return { key, issuerId: ((await res.json()) as { id: string }).id };
}
