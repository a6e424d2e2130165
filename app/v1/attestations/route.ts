import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

export const POST = apiRoute({ auth: "required", body: true, status: 201 }, ({ caller, body }) =>
  caller.attestations.create(body as never),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
