import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { apiKeysRouter } from "@/server/api/routers/api-keys";

export const POST = apiRoute(apiKeysRouter.revoke);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
