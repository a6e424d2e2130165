import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

const param = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;

export const GET = apiRoute({ auth: "required" }, ({ caller, query }) =>
  caller.packs.list({
    status: param(query, "status") as never,
    is_template: param(query, "is_template") as never,
    limit: param(query, "limit"),
    offset: param(query, "offset"),
  }),
);
export const POST = apiRoute({ auth: "required", body: true, status: 201 }, ({ caller, body }) => caller.packs.create(body as never));
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
