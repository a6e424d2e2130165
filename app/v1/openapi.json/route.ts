import { appRouter } from "@/server/api/root";
import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute(appRouter.docs.openapi, (doc) => ({ body: doc, headers: { "cache-control": "public, max-age=300" } }));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
