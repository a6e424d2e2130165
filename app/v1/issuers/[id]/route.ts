import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const GET = apiRoute({ auth: "required", ids: { id: "Issuer" } }, ({ caller, params }) => caller.issuers.get({ id: params.id! }));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
