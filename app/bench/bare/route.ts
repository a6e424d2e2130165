// The benchmark's baseline: a route handler that does nothing but answer (and, for POST,
// read a JSON body). Served only when HALLMARK_BENCH=1; otherwise it does not exist.
const enabled = () => process.env.HALLMARK_BENCH === "1";
const notFound = () => new Response("Not found", { status: 404 });

export async function GET() {
  if (!enabled()) return notFound();
  return Response.json({ ok: true });
}

export async function POST(req: Request) {
  if (!enabled()) return notFound();
  const body: unknown = await req.json();
  return Response.json({ ok: true, received: typeof body }, { status: 201 });
}
