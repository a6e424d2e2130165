import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { logRouter } from "@/server/api/routers/log";

export const GET = apiRoute(logRouter.successor);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
