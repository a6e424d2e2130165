// One load run, summarised: wrk when it is installed (apt-get install wrk), else autocannon.
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { hasWrk, loadWrk } from "./wrk";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  ok: number;
  errors: number;
}

/**
 * What to send. Templates vary per request: CONTENT_HASH becomes 64 fresh hex digits, PDQ_HASH 64
 * random hex digits (a perceptual hash: every window's value varies), UNIQUE 16 fresh hex digits
 * (a fresh e-mail address, say), ID a random entry of ids.
 */
export interface Workload {
  url: string;
  /** Several servers, each taking an equal share of the connections (the bench's own round-robin). */
  urls?: string[];
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  bodyTemplate?: string;
  pathTemplate?: string;
  ids?: string[];
  /** Called with the id of every 201 answer (the durability check). */
  onId?: (id: string) => void;
  /** The member of a 201 answer that names the attestation (default "id"; a mint answers "attestation_id"). */
  idField?: string;
  /** Send a fresh Idempotency-Key with every request, as a careful client does. */
  idempotencyKeys?: boolean;
  /**
   * Send each request as if from a client address of its own (X-Forwarded-For, believed by a
   * server started with HALLMARK_TRUSTED_PROXIES=1): many people, not one client's budget.
   */
  manyClients?: boolean;
  connections: number;
  seconds: number;
}

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
          ...(w.idempotencyKeys || w.manyClients
            ? {
                headers: {
                  ...req.headers,
                  ...(w.idempotencyKeys ? { "idempotency-key": randomBytes(16).toString("hex") } : {}),
                  ...(w.manyClients ? { "x-forwarded-for": randomAddress() } : {}),
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
