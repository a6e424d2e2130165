import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** Decimal digits become numbers; anything else is passed on for validation to reject. */
const size = (value: string | null): unknown => (value !== null && /^\d{1,16}$/.test(value) ? Number(value) : (value ?? undefined));

export const GET = apiRoute({ auth: "optional" }, ({ caller, query }) =>
  caller.log.consistency({ first: size(query.get("first")), second: size(query.get("second")) } as never),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
