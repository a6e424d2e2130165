import "server-only";
import { z } from "zod";
import { getConsistencyProof, getLogInfo, getLogKey, getLogPolicy, getPublishedNote, getTile } from "../../domain/log";
import { publicProcedure, router } from "../trpc";

const ZTreeSize = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The log is public: monitors and verifiers need no account. */
export const logRouter = router({
  info: publicProcedure.query(() => getLogInfo()),
  checkpoint: publicProcedure.query(() => getPublishedNote()),
  policy: publicProcedure.query(() => getLogPolicy()),
  key: publicProcedure.input(z.object({ kid: z.string().max(64) })).query(({ input }) => getLogKey(input.kid)),
  consistency: publicProcedure
    .input(z.object({ first: ZTreeSize.min(1), second: ZTreeSize.min(1) }))
    .query(({ input }) => getConsistencyProof(input)),
  tile: publicProcedure.input(z.object({ path: z.array(z.string().max(16)).max(8) })).query(({ input }) => getTile(input.path)),
});
