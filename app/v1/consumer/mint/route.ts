import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerRouter } from "@/server/api/routers/consumer";

// A replay of an earlier request with the same Idempotency-Key answers as the first did, marked.
export const POST = apiRoute(consumerRouter.mint, ({ protection, replayed }) => ({
  body: protection,
  headers: replayed ? { "idempotent-replayed": "true" } : undefined,
}));
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
