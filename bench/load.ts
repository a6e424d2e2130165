// One load run, summarised: wrk when it is installed (apt-get install wrk), else autocannon.
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { hasWrk, loadWrk } from "./wrk";
import type { LoadResult, Workload } from "./workload";

export const generator = hasWrk() ? "wrk" : "autocannon";

/** A random IPv4 address in 10.0.0.0/8. */
const randomAddress = () => `10.${randomBytes(3).join(".")}`;

async function loadAutocannon(w: Workload): Promise<LoadResult> {
  const pick = () => w.ids![Math.floor(Math.random() * w.ids!.length)]!;
  const result = await autocannon({
    url: w.url,
    connections: w.connections,
    duration: w.seconds,
    requests: [
      {
        method: w.method ?? "GET",
        headers: w.headers,
        ...(w.onId
          ? {
              onResponse: (status: number, body: string) =>
                status === 201 && w.onId!((JSON.parse(body) as Record<string, string>)[w.idField ?? "id"]!),
            }
          : {}),
        setupRequest: (req) => ({
          ...req,
          ...(w.idempotencyKeys || w.manyClients || w.apiKeys
            ? {
                headers: {
                  ...req.headers,
                  ...(w.idempotencyKeys ? { "idempotency-key": randomBytes(16).toString("hex") } : {}),
                  ...(w.manyClients ? { "x-forwarded-for": randomAddress() } : {}),
                  ...(w.apiKeys ? { "x-api-key": w.apiKeys[Math.floor(Math.random() * w.apiKeys.length)]! } : {}),
                },
              }
            : {}),
          ...(w.pathTemplate ? { path: w.pathTemplate.replace("ID", pick()) } : {}),
          ...(w.bodyTemplate
            ? {
                body: w.bodyTemplate
                  .replace("CONTENT_HASH", randomBytes(32).toString("hex"))
                  .replace("PDQ_HASH", randomBytes(32).toString("hex"))
                  .replace("UNIQUE", randomBytes(8).toString("hex")),
              }
            : {}),
        }),
      },
    ],
  });
  const ok = result["2xx"];
  return {
    rps: ok / w.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function loadOne(w: Workload): Promise<LoadResult> {
  if (generator === "autocannon") return loadAutocannon(w);
  const { onId, ...spec } = w;
  return loadWrk({ ...spec, collectIds: Boolean(onId) }, onId);
}

/** One run; with `urls`, one generator per server at once, their results combined. */
export async function load(w: Workload): Promise<LoadResult> {
  if (!w.urls) return loadOne(w);
  const parts = await Promise.all(
    w.urls.map((url) => loadOne({ ...w, url, urls: undefined, connections: Math.ceil(w.connections / w.urls!.length) })),
  );
  const ok = parts.reduce((s, r) => s + r.ok, 0);
  return {
    rps: parts.reduce((s, r) => s + r.rps, 0),
    ok,
    errors: parts.reduce((s, r) => s + r.errors, 0),
    p50: Math.max(...parts.map((r) => r.p50)),
    p99: Math.max(...parts.map((r) => r.p99)),
    mean: parts.reduce((s, r) => s + r.mean * r.ok, 0) / Math.max(1, ok),
  };
}
