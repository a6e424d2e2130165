import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { MAX_BATCH_CALLS } from "@/server/api/batching";
import { appRouter } from "@/server/api/root";
import { trpcStatusOf } from "@/server/api/trpc";
import { createContext } from "@/server/api/context";
import { dashboardPrincipal } from "@/server/auth/dashboard-principal";
import { AppError } from "@/server/errors";
import { errorToResponse } from "@/server/http/errors";
import { enforceSessionLimits } from "@/server/http/principal-limits";
import { requestIdOf } from "@/server/http/request-id";
import { logger } from "@/server/observability/logger.mjs";
import { noteRequest } from "@/server/observability/requests.mjs";
import { otherMethods } from "@/server/http/method-not-allowed";
import { screenTrpcRequest } from "@/server/http/trpc-request";

// The dashboard's tRPC endpoint: the same procedures as /v1, for the signed-in session.
const handler = async (raw: Request): Promise<Response> => {
  let req: Request;
  try {
    req = await screenTrpcRequest(raw);
  } catch (err) {
    return errorToResponse(err, "body", raw);
  }
  // The session's account spends its request budget here as on /v1: one unit per HTTP request.
  let principal: Awaited<ReturnType<typeof dashboardPrincipal>>;
  try {
    principal = await dashboardPrincipal(req);
    if (principal) await enforceSessionLimits(principal, {});
  } catch (err) {
    return errorToResponse(err, "body", raw);
  }
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: async () => {
      if (principal) noteRequest(req.headers.get("x-request-id"), { tenant: principal.tenantId });
      return createContext(principal, req.headers);
    },
    // A single call that failed with a domain AppError answers its status (and Retry-After…),
    // as /v1 does: tRPC alone would make it a 500. Batches keep tRPC's status; each item's
    // data.httpStatus is right either way (the error formatter sets it).
    responseMeta({ errors, data }) {
      const cause = errors.length === 1 && data.length === 1 ? errors[0]!.cause : null;
      return cause instanceof AppError ? { status: trpcStatusOf(cause.status), headers: cause.headers } : {};
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        logger.error({ req_id: requestIdOf(raw), procedure: path ?? "?", err: error.cause ?? error }, "tRPC call failed");
      }
    },
  });
  // tRPC answers a call it refuses before running (mixed queries and mutations in one batch)
  // with a JSON body but no content type; say what it is.
  if (res.body && !res.headers.get("content-type")?.startsWith("application/json")) res.headers.set("content-type", "application/json");
  return res;
};

export { handler as GET, handler as POST };
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
