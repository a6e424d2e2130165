import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { accountRouter } from "@/server/api/routers/account";

export const GET = apiRoute(accountRouter.sessions);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
