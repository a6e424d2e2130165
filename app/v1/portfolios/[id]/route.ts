import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

// Public: a creator's public protections, newest first (?limit=1..100&offset=).
export const GET = apiRoute({ auth: "optional", ids: { id: "Portfolio" } }, ({ caller, params, query }) =>
  caller.public.portfolio({ user_id: params.id!, limit: query.get("limit") ?? undefined, offset: query.get("offset") ?? undefined }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
