import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "required" }, ({ caller, query }) =>
  caller.consumer.protections({ limit: query.get("limit") ?? undefined, cursor: query.get("cursor") ?? undefined }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
