// Starts `next start` on a data directory for the benchmark, and stops it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export const DIST_DIR = process.env.HALLMARK_DIST_DIR || ".next-bench";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export function envFor(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    HALLMARK_BENCH: "1",
    HALLMARK_DIST_DIR: DIST_DIR,
    HALLMARK_DATA_DIR: dataDir,
    DATABASE_URL: `file:${dataDir}/hallmark.db`,
    HALLMARK_LOG_ORIGIN: "hallmark-bench",
  };
}

export function migrate(dataDir: string): void {
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], { stdio: "inherit", env: envFor(dataDir) });
}

export interface Server {
  url: string;
  stop(): Promise<void>;
}

export async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"], {
    env: { ...envFor(dataDir), PORT: String(port), HALLMARK_BASE_URL: url },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/v1/log`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
