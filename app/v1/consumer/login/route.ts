import { createCaller } from "@/server/api/root";
import type { ConsumerAuthContext } from "@/server/api/routers/consumer-auth";
import { sessionCookie } from "@/server/auth/session-cookie";
import { apiRoute } from "@/server/http/api-route";
import { clientAddress, ignoringSession } from "@/server/http/client-address";
import { otherMethods } from "@/server/http/method-not-allowed";

// No X-API-Key is needed (an invalid one sent is still 401); a session sent along is ignored.
export const POST = ignoringSession(
  apiRoute({ auth: "optional", body: true }, async ({ principal, body, req }) => {
    const ctx: ConsumerAuthContext = { principal, clientAddress: clientAddress(req.headers) };
    const result = await createCaller(ctx).consumerAuth.login(body as never);
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "no-store", "set-cookie": sessionCookie(result.session_token) },
    });
  }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
