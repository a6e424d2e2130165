import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: what a verify or share link shows (metadata only for public protections).
export const GET = apiRoute(publicRouter.protection);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
