import { clearedSessionCookie } from "@/server/auth/session-cookie";
import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

const logout = apiRoute({ auth: "required" }, async ({ caller }) => {
  const result = await caller.consumerAuth.logout();
  return new Response(JSON.stringify(result), {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", "set-cookie": clearedSessionCookie() },
  });
});

// The cookie is cleared also when the session it carries is no longer valid.
export const POST: typeof logout = async (req, ctx) => {
  const res = await logout(req, ctx);
  if (res.status === 401 && !res.headers.has("set-cookie")) res.headers.set("set-cookie", clearedSessionCookie());
  return res;
};
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
