import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { verificationsRouter } from "@/server/api/routers/verifications";

export const GET = apiRoute(verificationsRouter.get);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
