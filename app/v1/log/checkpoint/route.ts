import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { logRouter } from "@/server/api/routers/log";

// Witnesses add cosignatures to the newest checkpoint within seconds: never cached.
export const GET = apiRoute(logRouter.checkpoint);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
