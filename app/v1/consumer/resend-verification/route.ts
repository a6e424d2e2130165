import { apiRoute } from "@/server/http/api-route";
import { ignoringSession } from "@/server/http/client-address";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = ignoringSession(
  apiRoute({ auth: "optional", body: true, status: 202 }, ({ caller, body }) => caller.consumerAuth.resendVerification(body as never)),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
