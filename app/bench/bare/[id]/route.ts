// Baseline for URLs with a path parameter, such as GET /v1/attestations/{id}/proof-bundle:
// Next.js matches a dynamic segment and extracts its parameter on every request, work that
// any handler at such a URL pays (see answer.ts).
import { answer, benchEnabled, notFound } from "../answer";

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  if (!benchEnabled()) return notFound();
  await ctx.params;
  return answer(req, 200);
}
