import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "required" }, ({ caller }) => caller.consumer.usage());
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
