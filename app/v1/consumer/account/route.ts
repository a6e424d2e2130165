import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { accountRouter } from "@/server/api/routers/account";

export const GET = apiRoute(accountRouter.get);
export const PATCH = apiRoute(accountRouter.rename);
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
