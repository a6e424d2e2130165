import { apiRoute } from "@/server/http/api-route";
import { ignoringSession } from "@/server/http/client-address";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = ignoringSession(
  apiRoute({ auth: "optional", body: true }, ({ caller, body }) => caller.consumerAuth.verifyEmail(body as never)),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
