import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { logRouter } from "@/server/api/routers/log";

export const GET = apiRoute(logRouter.policy, (text) => ({ body: text, headers: { "cache-control": "public, max-age=60" } }));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
