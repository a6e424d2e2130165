import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { apiKeysRouter } from "@/server/api/routers/api-keys";

export const GET = apiRoute(apiKeysRouter.list);
export const POST = apiRoute(apiKeysRouter.create);
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
