import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

// Public: what a verify or share link shows (metadata only for public protections).
export const GET = apiRoute({ auth: "optional", ids: { id: "Protection" } }, ({ caller, params }) =>
  caller.public.protection({ id: params.id! }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
