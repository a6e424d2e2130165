import { z } from "zod";

const ZEmail = z.email().max(254);

export const ZSignupInput = z.strictObject({
  email: ZEmail,
  password: z.string().min(8).max(256),
  name: z.string().trim().min(1).max(100),
});

export const ZVerifyEmailInput = z.strictObject({
  token: z.string().min(1).max(256),
});

export const ZResendVerificationInput = z.strictObject({
  email: ZEmail,
});

/** Login checks the password only; its length rules are sign-up's business. */
export const ZLoginInput = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
});
