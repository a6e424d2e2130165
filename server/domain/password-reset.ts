import "server-only";
import { getDb } from "../db";
import { hashPassword } from "../crypto/passwords";
import { sha256Hex } from "../crypto/hash";
import { passwordResetMessage } from "../mail/messages";
import { sendMailInBackground } from "../mail/transport";
import { endSessions, isLinkTokenShaped, issueEmailToken, mayMail, revokeKeys, takeEmailToken, throttleClient } from "./account-mail";
import { normalizeEmail } from "./consumers";
import { AppError } from "../errors";

/** Password reset links: single use, 30 minutes, the newest one only. */
export const RESET_PASSWORD_PURPOSE = "reset_password";
export const RESET_TOKEN_MINUTES = 30;

const invalidLink = () => new AppError("invalid_token", "This reset link is invalid, was already used, or has expired.");

/**
 * "Forgot password": mails a reset link to the address if it has an account. The answer is the
 * same for any address. Throttled per client address (429) and per target address (silently).
 */
export async function requestPasswordReset(input: { email: string; client: string; headers: Record<string, string> }) {
  await throttleClient("passwordReset", input.client, input.headers);
  const email = normalizeEmail(input.email);
  const user = await getDb().read.user.findUnique({ where: { email }, select: { id: true } });
  if (user && (await mayMail(email))) {
    const token = await getDb().write((tx) =>
      issueEmailToken(tx, { userId: user.id, purpose: RESET_PASSWORD_PURPOSE, minutes: RESET_TOKEN_MINUTES }),
    );
    sendMailInBackground(passwordResetMessage(email, token, RESET_TOKEN_MINUTES));
  }
  return { status: "reset_sent" as const, email };
}

/**
 * Sets a new password with a reset link and ends every session of the account. Following the
 * link proves control of the address, so an account that was not yet verified is verified by it,
 * and (as any verification does) loses every API key made before.
 */
export async function resetPassword(input: { token: string; password: string }) {
  if (!isLinkTokenShaped(input.token)) throw invalidLink();
  // A link that cannot work costs no hash: it is looked up first, then taken in the transaction.
  const known = await getDb().read.emailToken.findUnique({
    where: { tokenHash: sha256Hex(input.token) },
    select: { purpose: true, usedAt: true },
  });
  if (!known || known.purpose !== RESET_PASSWORD_PURPOSE || known.usedAt) throw invalidLink();
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  return getDb().write(async (tx) => {
    const link = await takeEmailToken(tx, input.token, [RESET_PASSWORD_PURPOSE], now);
    if (!link) throw invalidLink();
    const user = await tx.user.findUniqueOrThrow({
      where: { id: link.userId },
      select: { id: true, tenantId: true, email: true, emailVerifiedAt: true },
    });
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now } });
    await tx.emailToken.updateMany({ where: { userId: user.id, purpose: RESET_PASSWORD_PURPOSE, usedAt: null }, data: { usedAt: now } });
    await endSessions(tx, user.id, now);
    if (!user.emailVerifiedAt) await revokeKeys(tx, user.tenantId, now);
    return { status: "password_reset" as const, email: user.email };
  });
}
