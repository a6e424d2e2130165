import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { tlogProofResponse } from "@/server/http/tlog-proof-response";

/** The proof bundle's facts as a C2SP tlog-proof@v1 file (key or session, as the bundle). */
export const GET = apiRoute({ auth: "required", ids: { id: "Attestation" } }, async ({ caller, params }) =>
  tlogProofResponse(await caller.attestations.tlogProof({ id: params.id! }), params.id!),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
