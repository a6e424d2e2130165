import "server-only";
import { toTlogProof } from "../../domain/proof-bundles";
import { getPortfolio, getPublicProofBundle, getPublicProtection } from "../../domain/public-protections";
import { publicProcedure, router } from "../trpc";
import { ZPortfolioInput, ZPublicIdInput } from "./public.types";

/** What visitors see without an account: verify and share pages, portfolios. */
export const publicRouter = router({
  protection: publicProcedure.input(ZPublicIdInput).query(({ input }) => getPublicProtection(input)),
  proofBundle: publicProcedure.input(ZPublicIdInput).query(({ input }) => getPublicProofBundle(input)),
  tlogProof: publicProcedure.input(ZPublicIdInput).query(async ({ input }) => toTlogProof(await getPublicProofBundle(input))),
  portfolio: publicProcedure
    .input(ZPortfolioInput)
    .query(({ input }) => getPortfolio({ userId: input.user_id, limit: input.limit ?? 24, offset: input.offset ?? 0 })),
});
