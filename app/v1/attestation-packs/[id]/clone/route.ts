import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { packsRouter } from "@/server/api/routers/packs";

export const POST = apiRoute(packsRouter.clone);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
