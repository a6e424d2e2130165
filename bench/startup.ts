// Start to ready: `npm start` (scripts/start.mjs: the pending-migration check, then the server)
// until /readyz answers 200, beside plain `next start` on the same build until its first answer
// (the framework's own floor), and SIGTERM to exit. No migration is pending: the data
// directory was migrated and has served before.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { DIST_DIR, envFor, freePort } from "./server";

async function until(url: string, ok: (status: number) => boolean, t0: number): Promise<number> {
  for (;;) {
    try {
      if (ok((await fetch(url)).status)) return performance.now() - t0;
    } catch {}
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One start: milliseconds to ready and from SIGTERM to exit. */
export async function startOnce(
  dataDir: string,
  opts: { bare?: boolean; databaseUrl?: string } = {},
): Promise<{ ready: number; stop: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [cmd, args] = opts.bare
    ? ["node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"]]
    : [process.execPath, ["scripts/start.mjs", "-p", String(port), "-H", "127.0.0.1"]];
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    env: {
      ...envFor(dataDir, opts.databaseUrl),
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      HALLMARK_BASE_URL: url,
      HALLMARK_DIST_DIR: DIST_DIR,
    },
    stdio: "ignore",
  });
  const ready = opts.bare ? await until(`${url}/bench/bare`, (s) => s === 200, t0) : await until(`${url}/readyz`, (s) => s === 200, t0);
  const t1 = performance.now();
  await new Promise((r) => {
    child.once("exit", r);
    child.kill("SIGTERM");
  });
  return { ready, stop: performance.now() - t1 };
}

/** `runs` alternating starts of Hallmark and of bare `next start`; medians. */
export async function startup(dataDir: string, runs: number, databaseUrl?: string) {
  const hallmark: { ready: number; stop: number }[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    hallmark.push(await startOnce(dataDir, { databaseUrl }));
    bare.push((await startOnce(dataDir, { bare: true, databaseUrl })).ready);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ready: hallmark.map((h) => h.ready), stop: hallmark.map((h) => h.stop), bare, median };
}
