import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** Public: the issuer key a log entry names by its kid, so a monitor can check every leaf. */
export const GET = apiRoute({ auth: "optional" }, ({ caller, params }) => caller.log.key({ kid: params.kid! }));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
