import "server-only";
import { getDb } from "../../db";
import { hashPassword } from "../../crypto/passwords";
import { sha256Hex } from "../../crypto/hash";
import { passwordResetMessage } from "../../mail/messages";
import { sendMailInBackground } from "../../mail/transport";
import { isLinkTokenShaped, issueEmailToken, takeEmailToken, voidPendingLinks } from "./links";
import { mayMailReset, throttleClient } from "./mail-budgets";
import { endSessions, revokeKeys } from "./revocation";
import { normalizeEmail } from "./consumers";
import { AppError } from "../../errors";
import { iso } from "../ids";

/**
 * Password reset links: single use, 30 minutes. A new one leaves the earlier ones working (a
 * stranger asking for resets must not void the link the owner is about to follow); using any
 * voids them all.
 */
export const RESET_PASSWORD_PURPOSE = "reset_password";
export const RESET_TOKEN_MINUTES = 30;

const invalidLink = () => new AppError("invalid_token", "This reset link is invalid, was already used, or has expired.");

/** A user id no account has: the probe of an address with no account reads what a real one would. */
const NO_ACCOUNT = "00000000-0000-0000-0000-000000000000";

/**
 * "Forgot password": mails a reset link to the address if it has an account. Whatever the
 * address, the request does the same work: it reads the account and whether this client address
 * has logged in to it before, spends the address's reset budget (mayMailReset), and writes one
 * link row, a live one only when a link is mailed (else born used, for no one). The answer is the
 * same for any address. Throttled per client address (429) and per target address (silently).
 */
export async function requestPasswordReset(input: { email: string; client: string; headers: Record<string, string> }) {
  await throttleClient("passwordReset", input.client, input.headers);
  const email = normalizeEmail(input.email);
  const db = getDb();
  const user = await db.read.user.findUnique({ where: { email }, select: { id: true } });
  // A client whose address is not known ("unknown": no gate in front) is no one's known address.
  const known = await db.read.session.findFirst({
    where: { userId: user?.id ?? NO_ACCOUNT, clientAddress: input.client === "unknown" ? "" : input.client },
    select: { id: true },
  });
  const mailed = (await mayMailReset(email, Boolean(known))) && user ? user.id : null;
  const token = await db.write((tx) =>
    issueEmailToken(tx, { userId: mailed, purpose: RESET_PASSWORD_PURPOSE, minutes: RESET_TOKEN_MINUTES, email, keepEarlier: true }),
  );
  if (mailed) sendMailInBackground(passwordResetMessage(email, token, RESET_TOKEN_MINUTES));
  return { status: "reset_sent" as const, email };
}

/** The live reset link a token names, read outside any transaction: its account and address; else null. */
async function liveResetLink(token: string) {
  if (!isLinkTokenShaped(token)) return null;
  const link = await getDb().read.emailToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { purpose: true, usedAt: true, expiresAt: true, email: true, user: { select: { tenantId: true, email: true } } },
  });
  if (!link?.user || link.purpose !== RESET_PASSWORD_PURPOSE || link.usedAt || link.expiresAt.getTime() <= Date.now()) return null;
  // A link works only for the address it was mailed to (links made before addresses were kept on them: any).
  if (link.email && link.email !== link.user.email) return null;
  return link.user;
}

/**
 * The API keys a reset with this link would revoke (every active key of the account), so the
 * reset page can show them first. Uses nothing up: the link stays usable.
 */
export async function resetKeys(input: { token: string }) {
  const account = await liveResetLink(input.token);
  if (!account) throw invalidLink();
  const rows = await getDb().read.apiKey.findMany({
    where: { tenantId: account.tenantId, status: "ACTIVE" },
    orderBy: { createdAt: "desc" },
    select: { name: true, prefix: true, createdAt: true },
  });
  const items = rows.map((k) => ({ name: k.name, prefix: k.prefix, created_at: iso(k.createdAt) }));
  return { items, total: items.length };
}

/**
 * Sets a new password with a reset link. A reset is recovery: whoever held a session or a key
 * may be the reason for it, so it ends every session and revokes every API key of the account
 * (an organisation owner's: the organisation's keys), and voids every other pending link (an
 * e-mail change asked for from a stolen session, say). Following the link proves control of the
 * address, so an account that was not yet verified is verified by it.
 */
export async function resetPassword(input: { token: string; password: string }) {
  // A link that cannot work costs no hash: it is looked up first, then taken in the transaction.
  if (!(await liveResetLink(input.token))) throw invalidLink();
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  return getDb().write(async (tx) => {
    const link = await takeEmailToken(tx, input.token, [RESET_PASSWORD_PURPOSE], now);
    if (!link) throw invalidLink();
    const user = await tx.user.findUniqueOrThrow({
      where: { id: link.userId },
      select: { id: true, tenantId: true, email: true, emailVerifiedAt: true },
    });
    if (link.email && link.email !== user.email) throw invalidLink();
    const apiKeysRevoked = await revokeKeys(tx, user.tenantId, now);
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now } });
    await voidPendingLinks(tx, user.id, now);
    const sessionsEnded = await endSessions(tx, user.id, now);
    return { status: "password_reset" as const, email: user.email, sessions_ended: sessionsEnded, api_keys_revoked: apiKeysRevoked };
  });
}
