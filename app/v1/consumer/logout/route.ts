import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { consumerAuthRouter } from "@/server/api/routers/consumer-auth";
import { clearedSessionCookie } from "@/server/auth/session-cookie";

const logout = apiRoute(consumerAuthRouter.logout, (result) => ({ body: result, headers: { "set-cookie": clearedSessionCookie() } }));

// The cookie is cleared also when the session it carries is no longer valid.
export const POST: typeof logout = async (req, ctx) => {
  const res = await logout(req, ctx);
  if (res.status === 401 && !res.headers.has("set-cookie")) res.headers.set("set-cookie", clearedSessionCookie());
  return res;
};
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
