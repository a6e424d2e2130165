import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

const param = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;

export const POST = apiRoute({ auth: "required", body: true, status: 201 }, ({ caller, body }) => caller.verifications.run(body as never));
export const GET = apiRoute({ auth: "required" }, ({ caller, query }) =>
  caller.verifications.list({
    pack_id: param(query, "pack_id"),
    result: param(query, "result") as never,
    limit: param(query, "limit"),
    offset: param(query, "offset"),
  }),
);
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
