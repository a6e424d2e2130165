import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { issuersRouter } from "@/server/api/routers/issuers";

export const GET = apiRoute(issuersRouter.get);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
