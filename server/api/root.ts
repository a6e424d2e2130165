import "server-only";
import type { AnyRouter } from "@trpc/server";
import { accountRouter } from "./routers/account";
import { apiKeysRouter } from "./routers/api-keys";
import { attestationsRouter } from "./routers/attestations";
import { consumerRouter } from "./routers/consumer";
import { consumerAuthRouter } from "./routers/consumer-auth";
import { docsRouter } from "./routers/docs";
import { issuersRouter } from "./routers/issuers";
import { logRouter } from "./routers/log";
import { packsRouter } from "./routers/packs";
import { publicRouter } from "./routers/public";
import { verificationsRouter } from "./routers/verifications";
import { viewerRouter } from "./routers/viewer";
import { witnessRouter } from "./routers/witness";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  attestations: attestationsRouter,
  consumer: consumerRouter,
  consumerAuth: consumerAuthRouter,
  // The docs describe every procedure, their own too: the router hands itself in, typed AnyRouter
  // since its own type is inferred from this very expression.
  docs: docsRouter((): AnyRouter => appRouter),
  issuers: issuersRouter,
  log: logRouter,
  packs: packsRouter,
  public: publicRouter,
  verifications: verificationsRouter,
  viewer: viewerRouter,
  witness: witnessRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
