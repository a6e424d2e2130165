import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import type { ConsumerAuthContext } from "@/server/api/routers/consumer-auth";
import { dashboardPrincipal } from "@/server/auth/dashboard-principal";
import { AppError } from "@/server/domain/errors";
import { clientAddress } from "@/server/http/client-address";

// The dashboard's tRPC endpoint: the same procedures as /v1, for the signed-in session.
const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async (): Promise<ConsumerAuthContext> => ({
      principal: await dashboardPrincipal(req),
      clientAddress: clientAddress(req.headers),
    }),
    // A single call that failed with a domain AppError answers its status (and Retry-After…),
    // as /v1 does: tRPC alone would make it a 500. Batches keep tRPC's status; each item's
    // data.httpStatus is right either way (the error formatter sets it).
    responseMeta({ errors, data }) {
      const cause = errors.length === 1 && data.length === 1 ? errors[0]!.cause : null;
      return cause instanceof AppError ? { status: cause.status, headers: cause.headers } : {};
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        console.error(`[hallmark] tRPC ${path ?? "?"} failed:`, error.cause ?? error);
      }
    },
  });

export { handler as GET, handler as POST };
