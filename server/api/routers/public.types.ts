import { z } from "zod";
import { ZIntParam } from "./query-params";

export const ZPublicIdInput = z.object({ id: z.string() });

export const ZPortfolioInput = z.object({
  user_id: z.string(),
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
