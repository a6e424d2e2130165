import "server-only";
import { getDb, type Tx } from "../../db";
import { emailChangeMessage, emailChangeNotice } from "../../mail/messages";
import { sendMailInBackground } from "../../mail/transport";
import { checkCurrentPassword } from "./account-settings";
import { issueEmailToken, voidPendingLinks } from "./links";
import { mayMail, throttleClient } from "./mail-budgets";
import { endSessions } from "./revocation";
import { normalizeEmail } from "./consumers";
import { AppError } from "../../errors";

/** E-mail change links: sent to the new address, single use, one hour. */
export const CHANGE_EMAIL_PURPOSE = "change_email";
export const CHANGE_EMAIL_MINUTES = 60;

/**
 * Asks to move an account to a new address: the change happens only when the link mailed to the
 * new address is followed (POST /v1/consumer/verify-email), and the old address gets a notice at
 * once. Needs the current password, so a session left open cannot hand the account away. The
 * answer is the same whether or not the new address is free: a taken one simply gets no link.
 * The link remembers the session that asked: it is the one that stays when the change is confirmed.
 */
export async function requestEmailChange(input: {
  userId: string;
  sessionId: string;
  email: string;
  password: string;
  client: string;
  headers: Record<string, string>;
}) {
  await throttleClient("emailChange", input.client, input.headers);
  const next = normalizeEmail(input.email);
  await checkCurrentPassword(input.userId, input.password);
  const user = await getDb().read.user.findUniqueOrThrow({ where: { id: input.userId }, select: { id: true, email: true } });
  if (next === user.email) {
    throw new AppError("validation_failed", "The request body failed validation; see errors.", [
      { pointer: "/email", detail: "is already this account's address" },
    ]);
  }
  const taken = await getDb().read.user.findUnique({ where: { email: next }, select: { id: true } });
  // The new address is anyone's to name, so its link spends sign-up mail; the old one's notice is a security notice.
  if (!taken && (await mayMail(next, "signup"))) {
    const token = await getDb().write((tx) =>
      issueEmailToken(tx, {
        userId: user.id,
        purpose: CHANGE_EMAIL_PURPOSE,
        minutes: CHANGE_EMAIL_MINUTES,
        email: next,
        sessionId: input.sessionId,
      }),
    );
    sendMailInBackground(emailChangeMessage(next, token, CHANGE_EMAIL_MINUTES));
  }
  if (await mayMail(user.email, "notice")) sendMailInBackground(emailChangeNotice(user.email, next));
  return { status: "confirmation_sent" as const, email: next };
}

/**
 * Inside a write transaction: the change a followed link confirms. The new address must still be
 * free (else the unique e-mail refuses it and the link is void). The old address's reach ends:
 * every session but the one that asked for the change ends, and every pending link of the account
 * (resets and verifications mailed to the old address, other changes) stops working; so does any
 * sign-up waiting on the new address. Returns the new address.
 */
export async function applyEmailChange(
  tx: Tx,
  link: { userId: string; email: string | null; sessionId: string | null },
  now: Date,
): Promise<string> {
  const email = link.email;
  if (!email) throw new AppError("invalid_token", "This verification link is invalid, was already used, or has expired.");
  await tx.user.update({ where: { id: link.userId }, data: { email, updatedAt: now } });
  await voidPendingLinks(tx, link.userId, now);
  await endSessions(tx, link.userId, now, link.sessionId);
  await tx.registration.updateMany({ where: { email, usedAt: null }, data: { usedAt: now } });
  return email;
}
