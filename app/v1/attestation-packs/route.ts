import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { packsRouter } from "@/server/api/routers/packs";

export const GET = apiRoute(packsRouter.list);
export const POST = apiRoute(packsRouter.create);
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
