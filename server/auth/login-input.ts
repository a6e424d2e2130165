import { z } from "zod";
import { text } from "@/lib/text-schemas";

/**
 * A login's input, the same for POST /v1/consumer/login and the dashboard's sign-in: the
 * password is only checked; its length rules are sign-up's business.
 */
export const ZLoginInput = z.strictObject({
  email: text(254, 1),
  password: z.string().min(1).max(256),
});
