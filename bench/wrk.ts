// One load run with wrk (C; far less CPU than a JavaScript load generator, which shares the
// 2 cores with the server under test). Bodies and paths vary per request through a Lua script;
// the bodies of 201 answers are collected for the durability check.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadResult, Workload } from "./workload";

export function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version
    return (err as { status?: number }).status === 1;
  }
}

export interface WrkSpec extends Omit<Workload, "onId"> {
  /** Collect the "id" of every 201 answer. */
  collectIds?: boolean;
}

function lua(spec: WrkSpec, idsFile: string): string {
  const q = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal here
  const headers = Object.entries(spec.headers ?? {})
    .map(([k, v]) => `[${q(k)}]=${q(v)}`)
    .join(", ");
  return `
local counter, acked = 0, nil
local ids = { ${(spec.ids ?? []).map(q).join(", ")} }
local keys = { ${(spec.apiKeys ?? []).map(q).join(", ")} }
local headers = { ${headers} }
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
request = function()
  counter = counter + 1
  local body = nil
  ${spec.idempotencyKeys ? `headers["idempotency-key"] = string.format("%08x%08x-%d", math.random(0, 2147483647), math.random(0, 2147483647), counter)` : ""}
  ${spec.apiKeys ? `headers["x-api-key"] = keys[math.random(#keys)]` : ""}
  ${spec.manyClients ? `headers["x-forwarded-for"] = string.format("10.%d.%d.%d", math.random(0, 255), math.random(0, 255), math.random(0, 255))` : ""}
  ${spec.bodyTemplate ? `body = string.gsub(${q(spec.bodyTemplate)}, "CONTENT_HASH", string.format("%08x%08x%048d", math.random(0, 2147483647), math.random(0, 2147483647), counter))` : ""}
  ${spec.bodyTemplate?.includes("PDQ_HASH") ? `body = string.gsub(body, "PDQ_HASH", string.format(string.rep("%08x", 8), ${Array(8).fill("math.random(0, 2147483647)").join(", ")}))` : ""}
  ${spec.bodyTemplate?.includes("UNIQUE") ? `body = string.gsub(body, "UNIQUE", string.format("%08x%08x", math.random(0, 2147483647), counter))` : ""}
  local p = ${spec.pathTemplate ? `string.gsub(${q(spec.pathTemplate)}, "ID", ids[math.random(#ids)])` : "nil"}
  return wrk.format(${q(spec.method ?? "GET")}, p, headers, body)
end
${
  spec.collectIds
    ? `response = function(status, hdrs, body)
  if status == 201 then
    if not acked then acked = io.open(${q(idsFile)}, "a") end
    acked:write(string.match(body, '"${spec.idField ?? "id"}":"([^"]+)"'), "\\n")
    acked:flush()
  end
end`
    : ""
}
done = function(summary, latency, requests)
  io.write(string.format("HM ok %d errors %d p50 %.3f p99 %.3f mean %.3f\\n",
    summary.requests - summary.errors.status, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.mean / 1000))
end
`;
}

export async function loadWrk(spec: WrkSpec, onId?: (id: string) => void): Promise<LoadResult> {
  const script = path.join(os.tmpdir(), `hallmark-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  const idsFile = `${script}.ids`;
  fs.writeFileSync(script, lua(spec, idsFile));
  try {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        "wrk",
        ["-t1", `-c${spec.connections}`, `-d${spec.seconds}s`, "-s", script, spec.url],
        { maxBuffer: 256 << 20, encoding: "utf8" },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    );
    const m = /HM ok (\d+) errors (\d+) p50 ([\d.]+) p99 ([\d.]+) mean ([\d.]+)/.exec(out);
    if (!m) throw new Error(`unexpected wrk output:\n${out.slice(0, 2000)}`);
    if (fs.existsSync(idsFile)) for (const id of fs.readFileSync(idsFile, "utf8").split("\n")) if (id) onId?.(id);
    const ok = Number(m[1]);
    return { rps: ok / spec.seconds, ok, errors: Number(m[2]), p50: Number(m[3]), p99: Number(m[4]), mean: Number(m[5]) };
  } finally {
    fs.rmSync(script, { force: true });
    fs.rmSync(idsFile, { force: true });
  }
}
