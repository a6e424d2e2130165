import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

// Public: the proof bundle a visitor verifies in the browser, or offline with `npm run verify`.
export const GET = apiRoute({ auth: "optional", ids: { id: "Protection" } }, ({ caller, params }) =>
  caller.public.proofBundle({ id: params.id! }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
