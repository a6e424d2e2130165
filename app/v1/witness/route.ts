import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { witnessRouter } from "@/server/api/routers/witness";

export const GET = apiRoute(witnessRouter.info);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
