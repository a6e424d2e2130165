// @hallmark-test db=sqlite,postgres lane=side-own-logs witnessing
// The log list of Hallmark's witness (HALLMARK_WITNESS_LOGS, logs/v0) as the witness network
// writes it: an entry the format rules out is skipped and reported (a log line, a metric, `npm
// run admin -- witnesses`), never a 500; a list at a URL is read again and its last good copy
// kept. On a server of its own (its own database on the run's database), fed by logs made here.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../cli";
import { fakeLog, leaves, request } from "./fake-log";
import { assertDescribed } from "./openapi-conformance";
import { OwnServer, ownDatabase, ownSqliteEnv } from "./own-server";

const logA = fakeLog(`list-a.example/log-${process.pid}`);
const logC = fakeLog(`list-c.example/log-${process.pid}`);
const item = (vkey: string) => `vkey ${vkey}\nqpd 86400\ncontact test\n`;
// Line 2 starts an entry whose qpd breaks the format's rule; the entry after it is good.
const withBadEntry = `logs/v0\nvkey ${logC.vkey}\nqpd 0\ncontact broken\n${item(logA.vkey)}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-witness-list-"));
const METRICS_TOKEN = "witness-list-metrics-token";
const env: NodeJS.ProcessEnv = { ...ownSqliteEnv(dir, "witness-list"), HALLMARK_METRICS_TOKEN: METRICS_TOKEN };
let server: OwnServer | undefined;
let dropDatabase: () => Promise<void>;

// The list's own server: it answers what `served` holds.
let served: { status: number; text: string } = { status: 200, text: withBadEntry };
const lists = http.createServer((_req, res) => {
  res.writeHead(served.status, { "content-type": "text/plain" });
  res.end(served.text);
});

async function boot(extra: Record<string, string>) {
  await server?.stop();
  Object.assign(env, extra);
  server = await OwnServer.start(env);
  await server.ready();
}

async function info() {
  const res = await fetch(`${server!.url}/v1/witness`);
  const text = await res.text();
  await assertDescribed(server!.url, "GET", "/v1/witness", res.status, res.headers, text);
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { logs: { origin: string }[] }).logs.map((l) => l.origin).sort();
}

/** Asks GET /v1/witness (which reads a stale list again, in the background) until `done` holds. */
async function until(done: (origins: string[]) => Promise<boolean> | boolean) {
  for (let i = 0; i < 150; i++) {
    if (await done(await info())) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the witness's list did not change in 15 s");
}

const admin = async () => (await promisify(execFile)(...cli("admin", "witnesses"), { encoding: "utf8", env })).stdout;
const metric = async (name: string) => {
  const text = await (await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
};

beforeAll(async () => {
  await new Promise<void>((r) => lists.listen(0, "127.0.0.1", r));
  dropDatabase = await ownDatabase(env, `hallmark_witness_list_${process.pid}`);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((r) => lists.close(r));
  await dropDatabase?.();
});

describe("the witness's log list", () => {
  it("skips an unusable entry and reports it (log line, metric, admin), never a 500; the others are witnessed", async () => {
    fs.writeFileSync(path.join(dir, "logs.txt"), withBadEntry);
    await boot({ HALLMARK_WITNESS_LOGS: path.join(dir, "logs.txt") });
    expect(await info()).toEqual([logA.origin]);
    const cosigned = await fetch(`${server!.url}/v1/witness/add-checkpoint`, {
      method: "POST",
      body: request(0, [], logA.checkpoint(leaves(3))),
    });
    expect(cosigned.status, await cosigned.text()).toBe(200);
    const skipped = await server!.line((l) => l.msg === "witness log list: entry skipped");
    expect(skipped).toMatchObject({ line: 2, origin: logC.origin, reason: expect.stringMatching(/qpd/) });
    expect(await metric("hallmark_witness_log_list_skipped_entries")).toBe(1);
    const printed = await admin();
    expect(printed).toMatch(new RegExp(`SKIPPED line 2 \\(${logC.origin}\\): .*qpd`));
    expect(printed).toContain(`${logA.origin} (qpd 86400): cosigned size 3`);
  });

  it("reads a list at a URL again, and keeps the last good copy when the URL fails or serves something else", async () => {
    const url = `http://127.0.0.1:${(lists.address() as AddressInfo).port}/log-list`;
    await boot({ HALLMARK_WITNESS_LOGS: url, HALLMARK_WITNESS_LOGS_REFRESH: "1" });
    expect(await info()).toEqual([logA.origin]);
    served = { status: 200, text: `logs/v0\n${item(logA.vkey)}${item(logC.vkey)}` };
    await until((origins) => origins.length === 2);
    expect(await info()).toEqual([logA.origin, logC.origin].sort());
    for (const broken of [
      { status: 503, text: "unavailable" },
      { status: 200, text: "<html>a captive portal</html>" },
    ]) {
      served = broken;
      const before = await metric("hallmark_witness_log_list_failures_total");
      await until(async () => (await metric("hallmark_witness_log_list_failures_total")) > before);
      expect(await info()).toEqual([logA.origin, logC.origin].sort());
    }
    expect(await admin()).toMatch(/the log list http:\/\/127\.0\.0\.1:\d+\/log-list cannot be read: .*logs\/v0/);
    const cosigned = await fetch(`${server!.url}/v1/witness/add-checkpoint`, {
      method: "POST",
      body: request(0, [], logC.checkpoint(leaves(2))),
    });
    expect(cosigned.status, await cosigned.text()).toBe(200);
  });
});
