import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerRouter } from "@/server/api/routers/consumer";

export const GET = apiRoute(consumerRouter.proofBundle);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
