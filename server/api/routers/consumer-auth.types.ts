import { z } from "zod";
import { name, text } from "@/lib/text-schemas";

const ZEmail = z.email().max(254);

export const ZSignupInput = z.strictObject({
  email: ZEmail,
  password: z.string().min(8).max(256),
  name: name(100),
});

export const ZVerifyEmailInput = z.strictObject({
  token: text(256, 1),
  password: z.string().max(256).optional().meta({
    description:
      "The password the link finishes with: the one chosen at sign-up for a sign-up's link, the account's for an e-mail change's or an operator-made account's. Checked after the token; missing or empty is 422 at /password.",
  }),
});

export const ZResendVerificationInput = z.strictObject({
  email: ZEmail,
});

export { ZLoginInput } from "../../auth/login-input";

/** A new password: the same rules as sign-up's. */
const ZNewPassword = z.string().min(8).max(256);

export const ZPasswordResetInput = z.strictObject({
  email: ZEmail,
});

export const ZResetKeysInput = z.strictObject({
  token: text(256, 1),
});

export const ZPasswordResetConfirmInput = z.strictObject({
  token: text(256, 1),
  password: ZNewPassword,
});

export const ZRenameInput = z.strictObject({
  name: name(100),
});

export const ZChangePasswordInput = z.strictObject({
  password: z.string().min(1).max(256),
  new_password: ZNewPassword,
  revoke_api_keys: z
    .boolean()
    .optional()
    .meta({ description: "Also revoke every API key of the account (default false): what to do when a key may have leaked." }),
});

export const ZChangeEmailInput = z.strictObject({
  email: ZEmail,
  password: z.string().min(1).max(256),
});

export const ZEndSessionInput = z.strictObject({
  id: z.uuid(),
});

/** Deleting takes the current password and the word DELETE, so that no stray request can. */
export const ZDeleteAccountInput = z.strictObject({
  password: z.string().min(1).max(256),
  confirm: z.literal("DELETE").meta({ description: 'The word "DELETE".' }),
});
