import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { tlogProofResponse } from "@/server/http/tlog-proof-response";

// Public: a protection's proof as a C2SP tlog-proof@v1 file, verifiable with the log's key alone.
export const GET = apiRoute({ auth: "optional", ids: { id: "Protection" } }, async ({ caller, params }) =>
  tlogProofResponse(await caller.public.tlogProof({ id: params.id! }), params.id!),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
