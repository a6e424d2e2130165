import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { accountRouter } from "@/server/api/routers/account";

export const POST = apiRoute(accountRouter.endOtherSessions);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
