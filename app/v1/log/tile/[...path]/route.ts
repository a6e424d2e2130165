import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { logRouter } from "@/server/api/routers/log";
import { tileAnswer } from "@/server/http/tile-response";

export const GET = apiRoute(logRouter.tile, tileAnswer);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
