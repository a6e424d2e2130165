import "server-only";
import { problemResponse } from "./problem";
import { requestIdOf } from "./request-id";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (req: Request) => Promise<Response>;

/** Handlers answering 405 problem+json (with Allow) for every method a route does not serve. */
export function otherMethods<A extends Method>(...allowed: A[]): Record<Exclude<Method, A>, Handler> {
  const served: readonly Method[] = allowed;
  const allow = [...served, ...(served.includes("GET") ? ["HEAD"] : [])].join(", ");
  const handler: Handler = async (req) =>
    problemResponse("method_not_allowed", `${req.method} is not allowed here; use ${served.join(" or ")}.`, {
      requestId: requestIdOf(req),
      headers: { allow },
    });
  return Object.fromEntries(METHODS.filter((m) => !served.includes(m)).map((m) => [m, handler])) as Record<Exclude<Method, A>, Handler>;
}
