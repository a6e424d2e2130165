import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import type { ConsumerAuthContext } from "@/server/api/routers/consumer-auth";
import { dashboardPrincipal } from "@/server/auth/dashboard-principal";
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
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[hallmark] tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
