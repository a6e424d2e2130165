import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: who protected the bytes of ?content_hash= (limited per client address).
export const GET = apiRoute(publicRouter.lookup);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
