// Baseline for static URLs such as POST /v1/attestations (see answer.ts).
import { answer, benchEnabled, notFound } from "./answer";

export async function GET(req: Request) {
  if (!benchEnabled()) return notFound();
  return answer(req, 200);
}

export async function POST(req: Request) {
  if (!benchEnabled()) return notFound();
  await req.json();
  return answer(req, 201);
}
