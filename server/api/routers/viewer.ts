import "server-only";
import { getViewer } from "../../domain/viewer";
import { ZViewer } from "../schemas/accounts";
import { publicProcedure, router } from "../trpc";

/** Who is signed in to the dashboard (null for a visitor). */
export const viewerRouter = router({
  me: publicProcedure.output(ZViewer).query(({ ctx }) => getViewer(ctx.principal)),
});
