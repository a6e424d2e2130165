import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { attestationsRouter } from "@/server/api/routers/attestations";

export const GET = apiRoute(attestationsRouter.proofBundle);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
