// What one add-checkpoint costs this instance as a witness (C2SP tlog-witness) when the
// checkpoint carries its log's signature line once, and when it carries 100 copies of it: a
// caller chooses how many lines it sends, so the two must cost about the same (each key is
// verified once). Both send the checkpoint the witness holds (a resubmission, answered 200 with
// cosignatures), interleaved in rounds, on one SQLite server of its own; the server's CPU per
// answer beside the rates.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fakeLog, leaves, request } from "../e2e/api/fake-log";
import { cpuSeconds } from "./cpu";
import { compare, fmtRatio } from "./compare";
import { migrate, type Server, startServer } from "./server";
import type { LoadResult } from "./workload";

interface Deps {
  fmt(r: LoadResult): string;
  rounds: number;
  seconds: number;
}

/** Fewer connections than the write benchmarks: each answer signs twice (Ed25519 and ML-DSA-44) on the event loop. */
const CONNECTIONS = 8;

export async function addCheckpointBench({ fmt, rounds, seconds }: Deps): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-bench-wac-"));
  const log = fakeLog("bench.example/witnessed-log");
  const logs = path.join(dir, "logs.txt");
  fs.writeFileSync(logs, `logs/v0\nvkey ${log.vkey}\nqpd 2147483647\ncontact bench\n`);
  let server: Server | undefined;
  try {
    migrate(dir);
    server = await startServer(dir, { env: { HALLMARK_WITNESS_LOGS: logs, HALLMARK_WITNESS_FAILURES: "1000000" } });
    const url = `${server.url}/v1/witness/add-checkpoint`;
    const cp = log.checkpoint(leaves(1000));
    const line = cp.slice(cp.lastIndexOf("\n\n") + 2);
    const first = await fetch(url, { method: "POST", body: request(0, [], cp) });
    if (first.status !== 200) throw new Error(`add-checkpoint answered ${first.status}: ${await first.text()}`);
    const once = request(1000, [], cp);
    const hundred = request(1000, [], cp.slice(0, -line.length) + line.repeat(100));
    const common = { url, method: "POST" as const, connections: CONNECTIONS, seconds };
    const pid = server.pid;
    const c = await compare({ once: { ...common, bodyTemplate: once }, hundred: { ...common, bodyTemplate: hundred } }, rounds, {
      cpu: () => ({ server: cpuSeconds(pid) }),
    });
    const cpu = (k: "once" | "hundred") => `${(c.cpuPerRequest[k].server! / 1000).toFixed(2)} ms of server CPU per 200`;
    return [
      `add-checkpoint, one log signature line: ${fmt(c.mean.once)}; ${cpu("once")}`,
      `add-checkpoint, 100 copies of that line: ${fmt(c.mean.hundred)}; ${cpu("hundred")}; ratio (100 copies / one) ${fmtRatio(c.ratio("hundred", "once"))}`,
    ];
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
