import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "required", ids: { id: "Pack" } }, ({ caller, params }) => caller.packs.get({ id: params.id! }));
export const PATCH = apiRoute({ auth: "required", body: true, ids: { id: "Pack" } }, ({ caller, params, body }) =>
  caller.packs.update({ id: params.id!, body }),
);
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
