import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerAuthRouter } from "@/server/api/routers/consumer-auth";

export const POST = apiRoute(consumerAuthRouter.resetKeys);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
