import "server-only";
import { logger } from "../../observability/logger.mjs";
import { consumeClientLimit } from "../../limits/client-limits";
import { getLimiter } from "../../limits/limiter";

/**
 * What the account flows that send mail may cost us, and who pays. Each flow has a budget per
 * client address (answered 429 `rate_limited` with Retry-After, before any password is hashed
 * or anything is written), and mail to one address comes from budgets per kind and target
 * address (MAIL_BUDGETS; silently: the answer stays the same, so it tells nothing about the
 * address, and no more mail of that kind goes there until the window ends).
 */
export const ACCOUNT_CLIENT_BUDGETS = {
  signup: { name: "signup", quota: 10, window: 3600 },
  resend: { name: "resend-verification", quota: 10, window: 3600 },
  passwordReset: { name: "password-reset", quota: 10, window: 3600 },
  emailChange: { name: "email-change", quota: 10, window: 3600 },
} as const;
export type AccountFlow = keyof typeof ACCOUNT_CLIENT_BUDGETS;

/**
 * Mail to one address, per hour, by kind, each kind from a budget of its own, so that what a
 * stranger can make us send (sign-up mail: anyone may sign up with any address) never spends
 * what the owner needs (reset links, security notices):
 * - `signup`: sign-up and resend verification links, "already registered" notices, and the
 *   link of an e-mail change (sent to the new address, which anyone may name);
 * - `reset`: reset links asked for by anyone, and `resetOwner` held beside it for reset requests
 *   from a client address that has logged in to the account before (a stranger spending the
 *   first share leaves the owner this one);
 * - `notice`: security notices (an e-mail change, to the old address; a password change; a deletion).
 * A new API key's notice is sent every time, from no budget: key creation is bounded by the
 * plan (createBoundedApiKey), and a notice that could be silenced would be no notice.
 * Beyond a budget nothing more of that kind is sent, silently: the answer stays the same.
 */
export const MAIL_BUDGETS = { signup: 5, reset: 3, resetOwner: 3, notice: 10 } as const;
export type MailKind = keyof typeof MAIL_BUDGETS;
export const MAIL_WINDOW_SECONDS = 60 * 60;

/** Spends one of the client address's units for `flow`, or throws 429 rate_limited. */
export function throttleClient(flow: AccountFlow, client: string, headers: Record<string, string>): Promise<void> {
  return consumeClientLimit(ACCOUNT_CLIENT_BUDGETS[flow], client, headers);
}

/** Spends one of `email`'s mails of `kind` this hour; false once they are spent (then nothing is sent, silently). */
export async function mayMail(email: string, kind: MailKind): Promise<boolean> {
  try {
    await getLimiter(`mail-${kind}`, MAIL_BUDGETS[kind], MAIL_WINDOW_SECONDS).consume(email);
    return true;
  } catch (err) {
    if (err instanceof Error) throw err; // the store failed, not the budget
    logger.warn({ kind, limit: MAIL_BUDGETS[kind], minutes: MAIL_WINDOW_SECONDS / 60 }, "mail suppressed: too many to one address");
    return false;
  }
}

/**
 * A reset link's budget: the shared share first, then, for a request from a client address
 * that has logged in to the account before (`known`), the share held for the owner.
 */
export async function mayMailReset(email: string, known: boolean): Promise<boolean> {
  if (await mayMail(email, "reset")) return true;
  return known && mayMail(email, "resetOwner");
}
