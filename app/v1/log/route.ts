import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "optional" }, ({ caller }) => caller.log.info());
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
