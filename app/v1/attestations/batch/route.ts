import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { attestationsRouter } from "@/server/api/routers/attestations";

// A replay of an earlier request with the same Idempotency-Key answers as the first did, marked.
export const POST = apiRoute(attestationsRouter.createBatch, ({ attestations, replayed }) => ({
  body: { attestations },
  headers: replayed ? { "idempotent-replayed": "true" } : undefined,
}));
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
