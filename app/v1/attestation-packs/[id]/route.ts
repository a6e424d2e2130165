import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { packsRouter } from "@/server/api/routers/packs";

export const GET = apiRoute(packsRouter.get);
export const PATCH = apiRoute(packsRouter.update);
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
