import { z } from "zod";
import { ZId } from "./text";
import { ZIntParam } from "./query-params";

export const ZPublicIdInput = z.object({ id: ZId });

export const ZPortfolioInput = z.object({
  user_id: ZId,
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
