import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";
import { tlogProofFile } from "@/server/http/tlog-proof-response";

export const GET = apiRoute(publicRouter.tlogProof, tlogProofFile);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
