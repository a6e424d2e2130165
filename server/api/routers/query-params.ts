import { z } from "zod";

/** An integer query parameter (query values arrive as strings), from `min` to `max`; else 400 invalid_parameter. */
export const ZIntParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`));
