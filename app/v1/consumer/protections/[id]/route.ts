import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerRouter } from "@/server/api/routers/consumer";

export const PATCH = apiRoute(consumerRouter.setVisibility);
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
