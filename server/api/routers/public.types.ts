import { z } from "zod";

export const ZPublicIdInput = z.object({ id: z.string() });

const pageNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`));

export const ZPortfolioInput = z.object({
  user_id: z.string(),
  limit: pageNumber(1, 100).optional(),
  offset: pageNumber(0, 100_000).optional(),
});
