import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: a creator's public protections, newest first (?limit=1..100&offset=).
export const GET = apiRoute(publicRouter.portfolio);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
