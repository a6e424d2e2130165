import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { attestationsRouter } from "@/server/api/routers/attestations";

export const POST = apiRoute(attestationsRouter.create);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
