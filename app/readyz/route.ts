import { readiness } from "@/server/ops/readiness";

export const dynamic = "force-dynamic";

// Readiness for a load balancer or an orchestrator: 200 when this instance can serve, else 503
// with the failing checks. Unauthenticated and cheap (a few reads); while the process stops,
// scripts/serve.mjs answers 503 itself.
export async function GET(): Promise<Response> {
  const r = await readiness();
  return new Response(JSON.stringify({ status: r.ready ? "ready" : "not_ready", checks: r.checks }), {
    status: r.ready ? 200 : 503,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...(r.ready ? {} : { "retry-after": "1" }) },
  });
}
