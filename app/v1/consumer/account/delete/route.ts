import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { accountRouter } from "@/server/api/routers/account";
import { clearedSessionCookie } from "@/server/auth/session-cookie";

export const POST = apiRoute(accountRouter.delete, (result) => ({ body: result, headers: { "set-cookie": clearedSessionCookie() } }));
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
