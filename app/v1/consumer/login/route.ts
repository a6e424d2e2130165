import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerAuthRouter } from "@/server/api/routers/consumer-auth";
import { sessionCookie } from "@/server/auth/session-cookie";

export const POST = apiRoute(consumerAuthRouter.login, (result) => ({
  body: result,
  headers: { "set-cookie": sessionCookie(result.session_token) },
}));
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
