import "server-only";
import { getDb, isUniqueViolation, type Tx } from "../../db";
import { hashPassword, verifyPassword } from "../../crypto/passwords";
import { sha256Hex } from "../../crypto/hash";
import { alreadyRegisteredMessage, verificationMessage } from "../../mail/messages";
import { sendMailInBackground } from "../../mail/transport";
import { isLinkTokenShaped, issueEmailToken, newLinkToken, takeEmailToken, voidPendingLinks } from "./links";
import { mayMail, throttleClient } from "./mail-budgets";
import { endSessions, revokeKeys } from "./revocation";
import { applyEmailChange, CHANGE_EMAIL_PURPOSE } from "./email-change";
import { insertConsumer, normalizeEmail } from "./consumers";
import { attemptRefusal } from "../../limits/attempts";
import { getLimiter } from "../../limits/limiter";
import { AppError } from "../../errors";
import { newId } from "../ids";

/**
 * Who owns an account is whoever controls its address. A sign-up makes no account: it stores a
 * registration (the password hash and name it chose) and mails a link to the address. Following
 * a link makes the account, or sets an unverified one's password and name, from the
 * registration that link was sent for, and voids every other registration of the address. So a
 * stranger who signs up first with someone else's address is left with nothing once the owner
 * follows their own link; and a verified account is never changed by a sign-up.
 */

/** Verification links: single use, 24 h. */
export const VERIFY_EMAIL_PURPOSE = "verify_email";
export const VERIFY_TOKEN_HOURS = 24;

type Throttled = { client: string; headers: Record<string, string> };

/** The one answer of sign-up and resend, whether or not the address has an account. */
const sent = (email: string) => ({ status: "verification_sent" as const, email });

const invalidLink = () => new AppError("invalid_token", "This verification link is invalid, was already used, or has expired.");

/** A pending registration's new link, mailed (the registration's earlier link stops working). */
async function mailRegistrationLink(registration: { id: string; email: string; createdAt: Date }): Promise<void> {
  const { token, tokenHash } = newLinkToken();
  await getDb().write((tx) => tx.registration.update({ where: { id: registration.id }, data: { tokenHash } }));
  sendMailInBackground(verificationMessage(registration.email, token, VERIFY_TOKEN_HOURS, registration.createdAt, { signup: true }));
}

/**
 * Sign-up. The answer never tells whether the address already had an account (202, same
 * body, and the password is hashed in every case): a new or unverified address gets a link
 * for this registration; one with a verified account gets an "you already have an account"
 * notice and nothing changes. Throttled per client address (429) before any work, and the mail
 * per target address (silently).
 */
export async function signUp(input: { email: string; password: string; name: string } & Throttled) {
  await throttleClient("signup", input.client, input.headers);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const user = await getDb().read.user.findUnique({ where: { email }, select: { emailVerifiedAt: true } });
  if (!(await mayMail(email, "signup"))) return sent(email);
  const taken = Boolean(user?.emailVerifiedAt);
  const { token, tokenHash } = newLinkToken();
  const now = new Date();
  // Written for a taken address too, born used and holding nothing the stranger chose (its
  // link is never sent): the same write, so the same time, whatever the address.
  await getDb().write((tx) =>
    tx.registration.create({
      data: {
        id: newId(),
        email,
        name: taken ? "" : input.name,
        passwordHash: taken ? "" : passwordHash,
        tokenHash,
        expiresAt: new Date(now.getTime() + VERIFY_TOKEN_HOURS * 3600_000),
        usedAt: taken ? now : null,
        createdAt: now,
      },
    }),
  );
  sendMailInBackground(
    taken ? alreadyRegisteredMessage(email) : verificationMessage(email, token, VERIFY_TOKEN_HOURS, now, { signup: true }),
  );
  return sent(email);
}

/** The address's newest pending registration (unused and unexpired), if any. */
function newestPendingRegistration(email: string) {
  return getDb().read.registration.findFirst({
    where: { email, usedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, createdAt: true },
  });
}

/**
 * Sends a new link for the address's newest pending registration (its earlier link stops
 * working; other registrations' links are untouched). An unverified account made by an
 * operator, with no registration, gets a link for itself. The same answer for any address.
 */
export async function resendVerification(input: { email: string } & Throttled) {
  await throttleClient("resend", input.client, input.headers);
  const email = normalizeEmail(input.email);
  const user = await getDb().read.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true, createdAt: true } });
  if (user?.emailVerifiedAt) return sent(email);
  const newest = await newestPendingRegistration(email);
  if (newest) {
    if (await mayMail(email, "signup")) await mailRegistrationLink(newest);
  } else if (user && (await mayMail(email, "signup"))) {
    const token = await getDb().write((tx) =>
      issueEmailToken(tx, { userId: user.id, purpose: VERIFY_EMAIL_PURPOSE, minutes: VERIFY_TOKEN_HOURS * 60 }),
    );
    sendMailInBackground(verificationMessage(email, token, VERIFY_TOKEN_HOURS, user.createdAt, { signup: false }));
  }
  return sent(email);
}

/**
 * Inside a write transaction: the account a registration's link makes, or the unverified one it
 * takes over (its password and name replaced, every session and key made before revoked: they
 * were made by someone who never proved the address). Every other registration of the address
 * is voided. A verified account already holding the address voids the link instead.
 */
async function completeRegistration(tx: Tx, registration: { email: string; name: string; passwordHash: string }, now: Date) {
  const { email, name, passwordHash } = registration;
  await tx.registration.updateMany({ where: { email, usedAt: null }, data: { usedAt: now } });
  const user = await tx.user.findUnique({ where: { email }, select: { id: true, tenantId: true, emailVerifiedAt: true } });
  if (user?.emailVerifiedAt) throw invalidLink();
  if (!user) {
    await insertConsumer(tx, { email, passwordHash, name, plan: "free", verifiedAt: now, now });
    return;
  }
  await tx.user.update({ where: { id: user.id }, data: { passwordHash, name, emailVerifiedAt: now, updatedAt: now } });
  await tx.tenant.update({ where: { id: user.tenantId }, data: { name, updatedAt: now } });
  await voidPendingLinks(tx, user.id, now);
  await endSessions(tx, user.id, now);
  await revokeKeys(tx, user.tenantId, now);
}

/** Inside a write transaction: an operator-made unverified account confirmed by its own link. */
async function confirmAccount(tx: Tx, userId: string, now: Date): Promise<string> {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, tenantId: true, email: true, emailVerifiedAt: true },
  });
  if (!user.emailVerifiedAt) {
    await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now, updatedAt: now } });
    await endSessions(tx, user.id, now);
    await revokeKeys(tx, user.tenantId, now);
  }
  return user.email;
}

/** Wrong passwords one confirmation link may be followed with, per window, before 429. */
export const LINK_PASSWORD_CHECKS = 5;
const LINK_PASSWORD_WINDOW_SECONDS = 15 * 60;

const live = (r: { usedAt: Date | null; expiresAt: Date }, now: Date) => !r.usedAt && r.expiresAt.getTime() > now.getTime();

/** A live link's row (a registration, or an account's e-mail token) and the password it finishes with. */
type LinkSecret = { table: "registration" | "email_token"; id: string; passwordHash: string | null };

/**
 * A confirmation link finishes only with the password of what it confirms: a sign-up's link
 * with the password chosen at that sign-up, an e-mail change's and an operator-made account's
 * with the account's password. Whoever controls the inbox must also be whoever holds that
 * password, so an owner who follows a link a stranger made us send (a sign-up, or a change of
 * the stranger's own account to the owner's address) never leaves the stranger's password on
 * the owner's address. Missing is 422 with a pointer to /password; wrong is 403
 * `wrong_password`, the link still unused; past LINK_PASSWORD_CHECKS wrong ones in a window,
 * 429. Checked outside any transaction (a hash takes tens of milliseconds).
 */
async function checkLinkPassword(secret: LinkSecret, password: string | undefined): Promise<void> {
  if (!password) {
    throw new AppError("validation_failed", "Enter your password to confirm: the one chosen at sign-up, or the account's.", [
      { pointer: "/password", detail: "is needed to confirm: the password chosen at sign-up, or the account's" },
    ]);
  }
  const limiter = getLimiter("link-password", LINK_PASSWORD_CHECKS, LINK_PASSWORD_WINDOW_SECONDS);
  const key = `${secret.table}:${secret.id}`;
  try {
    await limiter.consume(key);
  } catch (err) {
    throw attemptRefusal(err, "wrong passwords for this link");
  }
  if (!(await verifyPassword(secret.passwordHash, password))) {
    const what = secret.table === "registration" ? "the password chosen at sign-up" : "this account's password";
    throw new AppError("wrong_password", `That is not ${what}.`, [{ pointer: "/password", detail: `is not ${what}` }]);
  }
  await limiter.reward(key, 1);
}

/** The live link a token names, read outside any transaction, with the password it finishes with; else null. */
async function linkSecret(tokenHash: string, now: Date): Promise<LinkSecret | null> {
  const registration = await getDb().read.registration.findUnique({
    where: { tokenHash },
    select: { id: true, passwordHash: true, usedAt: true, expiresAt: true },
  });
  if (registration) {
    return live(registration, now) ? { table: "registration", id: registration.id, passwordHash: registration.passwordHash } : null;
  }
  const link = await getDb().read.emailToken.findUnique({
    where: { tokenHash },
    select: { id: true, purpose: true, usedAt: true, expiresAt: true, user: { select: { passwordHash: true } } },
  });
  if (!link?.user || ![VERIFY_EMAIL_PURPOSE, CHANGE_EMAIL_PURPOSE].includes(link.purpose) || !live(link, now)) return null;
  return { table: "email_token", id: link.id, passwordHash: link.user.passwordHash };
}

/**
 * Follows a link sent to confirm an address: a registration's, an operator-made account's, or
 * an e-mail change's, each with its password (checkLinkPassword). Single use; unknown, used or
 * expired is 400 invalid_token, and so is the link of an address another verified account took
 * meanwhile.
 */
export async function verifyEmail(input: { token: string; password?: string }) {
  if (!isLinkTokenShaped(input.token)) throw invalidLink();
  const now = new Date();
  const tokenHash = sha256Hex(input.token);
  const secret = await linkSecret(tokenHash, now);
  if (!secret) throw invalidLink();
  await checkLinkPassword(secret, input.password);
  try {
    return await getDb().write(async (tx) => {
      const registration = await tx.registration.findUnique({ where: { tokenHash } });
      if (registration) {
        // Checked again in the transaction: the password was checked against this very row.
        if (secret.id !== registration.id || !live(registration, now)) throw invalidLink();
        // Conditional on still unused, so two concurrent uses cannot both succeed.
        const { count } = await tx.registration.updateMany({ where: { id: registration.id, usedAt: null }, data: { usedAt: now } });
        if (count !== 1) throw invalidLink();
        await completeRegistration(tx, registration, now);
        return { status: "verified" as const, email: registration.email };
      }
      const row = await takeEmailToken(tx, input.token, [VERIFY_EMAIL_PURPOSE, CHANGE_EMAIL_PURPOSE], now);
      if (!row || secret.id !== row.id) throw invalidLink();
      const email = row.purpose === CHANGE_EMAIL_PURPOSE ? await applyEmailChange(tx, row, now) : await confirmAccount(tx, row.userId, now);
      return { status: "verified" as const, email };
    });
  } catch (err) {
    // Two links for one address followed at once: the second finds the address taken.
    if (isUniqueViolation(err)) throw invalidLink();
    throw err;
  }
}
