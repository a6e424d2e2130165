import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { attestationsRouter } from "@/server/api/routers/attestations";
import { tlogProofFile } from "@/server/http/tlog-proof-response";

export const GET = apiRoute(attestationsRouter.tlogProof, tlogProofFile);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
