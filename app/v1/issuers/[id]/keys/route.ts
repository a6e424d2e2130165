import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { issuersRouter } from "@/server/api/routers/issuers";

export const POST = apiRoute(issuersRouter.rotateKey);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
