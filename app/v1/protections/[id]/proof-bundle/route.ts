import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: the proof bundle a visitor verifies in the browser, or offline with `npm run verify`.
export const GET = apiRoute(publicRouter.proofBundle);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
