import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { verificationsRouter } from "@/server/api/routers/verifications";

export const GET = apiRoute(verificationsRouter.list);
export const POST = apiRoute(verificationsRouter.run);
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
