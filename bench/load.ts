// One load run with autocannon, summarised.
import autocannon from "autocannon";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  ok: number;
  errors: number;
}

export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A fresh body per request (JSON text). */
  body?: () => string;
  /** A fresh path per request. */
  path?: () => string;
  connections: number;
  seconds: number;
  /** Called with each response's status and body. */
  onResponse?: (status: number, body: string) => void;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    requests: [
      {
        method: spec.method ?? "GET",
        headers: spec.headers,
        ...(spec.onResponse ? { onResponse: (status: number, body: string) => spec.onResponse!(status, body) } : {}),
        setupRequest: (req) => ({
          ...req,
          ...(spec.path ? { path: spec.path() } : {}),
          ...(spec.body ? { body: spec.body() } : {}),
        }),
      },
    ],
  });
  const ok = result["2xx"];
  return {
    rps: ok / spec.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}
