// @hallmark-test db=sqlite lane=second-server
// A request whose connection the server drops before its answer is written leaves nothing
// behind. Next's tracer keeps each request's root-span attributes, its URL among them, in a Map
// until the request's handler settles, which it never does for such a request. It does so only
// when it takes OpenTelemetry for enabled, which a bundled (minified) @opentelemetry/api made it
// do; next.config.js keeps the package external. The test sends requests followed on the same
// connection by bytes that are not HTTP (the server refuses those as malformed and closes the
// connection while the request is still being handled), each with a marker in its query, then
// looks for the markers in a heap snapshot (V8 collects garbage before writing one): a URL that
// is still reachable was kept.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect } from "vitest";
import { dbKind } from "./helpers";
import { itWhere } from "./only-where";
import { OwnServer, ownSqliteEnv, sleep } from "./own-server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-tracer-leak-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const DROPPED = 40;

/**
 * A GET on a connection of its own, followed by bytes that are not HTTP: the server refuses
 * those and closes the connection; resolves with what it sent once it is closed.
 */
function dropped(port: number, target: string): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: hm_live_not_a_key\r\n\r\n{}`),
    );
    socket.on("data", (d: Buffer) => {
      received += d.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
  });
}

/** Writes a heap snapshot of `server` (SIGUSR2) into `dir` and returns its text once complete. */
async function heapSnapshot(server: OwnServer, dir: string): Promise<string> {
  server.child.kill("SIGUSR2");
  for (let i = 0; i < 240; i++) {
    await sleep(250);
    const file = fs.readdirSync(dir).find((f) => f.endsWith(".heapsnapshot"));
    if (!file) continue;
    // The server answers again once its main thread has written the whole file.
    const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
    if (health?.ok) return fs.readFileSync(path.join(dir, file), "utf8");
  }
  throw new Error("no heap snapshot was written");
}

describe("requests whose connection is dropped", () => {
  itWhere(dbKind === "sqlite", "its server runs on a SQLite file of its own: the tracer is the same on either database")(
    "leave none of their URLs reachable in the server's heap",
    async () => {
      const snapDir = path.join(work, "snapshots");
      fs.mkdirSync(snapDir);
      const env = ownSqliteEnv(path.join(work, "data"), "tracer-leak");
      execFileSync(process.execPath, ["scripts/prisma.mjs", "deploy"], { env, stdio: "ignore" });
      const server = await OwnServer.start(env, {
        nodeArgs: ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapDir}`],
      });
      try {
        await server.ready();
        const marker = `dropped${randomUUID().replaceAll("-", "")}`;
        for (let i = 0; i < DROPPED; i++) {
          const received = await dropped(server.port, `/v1/issuers?${marker}=${i}`);
          expect(received, "the server refuses what follows the GET").toContain("malformed_request");
        }
        // Requests the client waits for carry the marker too: they must be gone as well once answered.
        for (let i = 0; i < 10; i++) await fetch(`${server.url}/v1/log?${marker}=answered${i}`).then((r) => r.arrayBuffer());
        await sleep(1_500);
        const text = await heapSnapshot(server, snapDir);
        const kept = new Set(text.match(new RegExp(`${marker}=[0-9a-z]+`, "g")) ?? []);
        expect([...kept]).toEqual([]);
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});
