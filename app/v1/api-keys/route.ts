import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "required" }, ({ caller }) => caller.apiKeys.list());
export const POST = apiRoute({ auth: "required", body: true, status: 201 }, ({ caller, body }) => caller.apiKeys.create(body as never));
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
