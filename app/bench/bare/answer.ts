// The benchmark's baselines (app/bench/bare, app/bench/bare/[id]): route handlers that do
// nothing but answer (and, for POST, read a JSON body). `?bytes=N` pads the answer to about
// N bytes, so a baseline serves a response of the same size as the endpoint it is compared
// with. Served only when HALLMARK_BENCH=1; otherwise they do not exist.
export const benchEnabled = () => process.env.HALLMARK_BENCH === "1";

export const notFound = () => new Response("Not found", { status: 404 });

export function answer(req: Request, status: number): Response {
  const bytes = Math.min(Number(new URL(req.url).searchParams.get("bytes")) || 0, 1 << 20);
  return Response.json({ ok: true, padding: "x".repeat(Math.max(0, bytes - 30)) }, { status });
}
