// The benchmark's baseline: a route handler that does nothing but answer (and, for POST,
// read a JSON body). `?bytes=N` pads the answer to about N bytes, so the baseline serves a
// response of the same size as the endpoint it is compared with. Served only when
// HALLMARK_BENCH=1; otherwise it does not exist.
const enabled = () => process.env.HALLMARK_BENCH === "1";
const notFound = () => new Response("Not found", { status: 404 });

function answer(req: Request, status: number): Response {
  const bytes = Math.min(Number(new URL(req.url).searchParams.get("bytes")) || 0, 1 << 20);
  return Response.json({ ok: true, padding: "x".repeat(Math.max(0, bytes - 30)) }, { status });
}

export async function GET(req: Request) {
  if (!enabled()) return notFound();
  return answer(req, 200);
}

export async function POST(req: Request) {
  if (!enabled()) return notFound();
  await req.json();
  return answer(req, 201);
}
