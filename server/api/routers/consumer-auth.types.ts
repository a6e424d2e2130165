import { z } from "zod";
import { name, text } from "./text";

const ZEmail = z.email().max(254);

export const ZSignupInput = z.strictObject({
  email: ZEmail,
  password: z.string().min(8).max(256),
  name: name(100),
});

export const ZVerifyEmailInput = z.strictObject({
  token: text(256, 1),
});

export const ZResendVerificationInput = z.strictObject({
  email: ZEmail,
});

/** Login checks the password only; its length rules are sign-up's business. */
export const ZLoginInput = z.strictObject({
  email: text(254, 1),
  password: z.string().min(1).max(256),
});
