import { problemResponse } from "@/server/http/problem";
import { requestIdOf } from "@/server/http/request-id";

/** Any /v1 path no route serves: a problem+json 404 rather than an HTML page. */
const notFound = async (req: Request) =>
  problemResponse("not_found", `No endpoint at ${new URL(req.url).pathname}.`, { requestId: requestIdOf(req) });

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
