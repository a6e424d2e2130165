import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** Rotates the issuer's signing key: the new key signs from now on. */
export const POST = apiRoute({ auth: "required", status: 201, ids: { id: "Issuer" } }, ({ caller, params }) =>
  caller.issuers.rotateKey({ id: params.id! }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
