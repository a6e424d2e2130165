import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = apiRoute({ auth: "required", body: true, status: 201 }, async ({ caller, body, req }) => {
  const result = await caller.consumer.mint({ body, idempotency_key: req.headers.get("idempotency-key") });
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (result.replayed) headers["idempotent-replayed"] = "true";
  return new Response(JSON.stringify(result.body), { status: result.status, headers });
});
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
