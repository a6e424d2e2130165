import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = apiRoute({ auth: "required", body: true, status: 201, ids: { id: "Pack" } }, ({ caller, params, body }) =>
  caller.packs.clone({ id: params.id!, body }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
