import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { issuersRouter } from "@/server/api/routers/issuers";

export const GET = apiRoute(issuersRouter.list);
export const POST = apiRoute(issuersRouter.create);
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
