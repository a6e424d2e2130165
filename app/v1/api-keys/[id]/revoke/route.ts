import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = apiRoute({ auth: "required", ids: { id: "API key" } }, ({ caller, params }) =>
  caller.apiKeys.revoke({ id: params.id! }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
