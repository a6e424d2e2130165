import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

const param = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;

export const GET = apiRoute({ auth: "required" }, ({ caller, query }) =>
  caller.consumer.protections({
    limit: param(query, "limit"),
    cursor: param(query, "cursor"),
    category: param(query, "category") as never,
    visibility: param(query, "visibility") as never,
  }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
