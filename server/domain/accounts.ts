import "server-only";
import { logger } from "../observability/logger.mjs";
import crypto from "node:crypto";
import { getDb } from "../db";
import { hashPassword, verifyPassword } from "../crypto/passwords";
import { sha256Hex } from "../crypto/hash";
import { RateLimiterRes } from "rate-limiter-flexible";
import { getLimiter, type Limiter } from "../limits/limiter";
import { alreadyRegisteredMessage, verificationMessage } from "../mail/messages";
import { sendMailInBackground } from "../mail/transport";
import { createConsumer, normalizeEmail } from "./consumers";
import { AppError } from "./errors";
import { newId } from "./ids";
import { createSession } from "../auth/sessions";

/** The realm login reports: a consumer's personal account, or the owner of an organisation (the console). */
export const CONSUMER_REALM = "consumer";
export const ORGANIZATION_REALM = "organization";
export type Realm = typeof CONSUMER_REALM | typeof ORGANIZATION_REALM;
export const realmOfTenantKind = (kind: string): Realm => (kind === "ORGANIZATION" ? ORGANIZATION_REALM : CONSUMER_REALM);

/** Verification links: 32 random bytes (base64url), only their SHA-256 is stored, single use. */
export const VERIFY_EMAIL_PURPOSE = "verify_email";
export const VERIFY_TOKEN_HOURS = 24;

/** Login throttling: password checks per account (e-mail) and per client address, in a fixed window (the right password gives its check back). */
export const LOGIN_ACCOUNT_FAILURES = 5;
export const LOGIN_CLIENT_FAILURES = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/** Verification and notice e-mails per address (sign-up and resend together). */
export const MAILS_PER_ADDRESS = 5;
export const MAIL_WINDOW_SECONDS = 60 * 60;

export interface ConsumerUserView {
  id: string;
  email: string;
  name: string;
  realm: Realm;
}

const view = (u: { id: string; email: string; name: string; tenant: { kind: string } }): ConsumerUserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  realm: realmOfTenantKind(u.tenant.kind),
});

/** The one answer of sign-up and resend, whether or not the address has an account. */
const sent = (email: string) => ({ status: "verification_sent" as const, email });

/** False once an address has had its share of mail this hour (then nothing more is sent, silently). */
async function mayMail(email: string): Promise<boolean> {
  try {
    await getLimiter("mail-per-address", MAILS_PER_ADDRESS, MAIL_WINDOW_SECONDS).consume(email);
    return true;
  } catch (err) {
    if (err instanceof Error) throw err; // the store failed, not the budget
    logger.warn({ limit: MAILS_PER_ADDRESS, minutes: MAIL_WINDOW_SECONDS / 60 }, "mail suppressed: too many to one address");
    return false;
  }
}

/**
 * A new verification token for a user; earlier unused ones stop working (marked used).
 * Returns the token itself: it exists only in the e-mail.
 */
async function issueVerificationToken(userId: string): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  await getDb().write(async (tx) => {
    await tx.emailToken.updateMany({ where: { userId, purpose: VERIFY_EMAIL_PURPOSE, usedAt: null }, data: { usedAt: now } });
    await tx.emailToken.create({
      data: {
        id: newId(),
        userId,
        purpose: VERIFY_EMAIL_PURPOSE,
        tokenHash: sha256Hex(token),
        expiresAt: new Date(now.getTime() + VERIFY_TOKEN_HOURS * 3600_000),
        createdAt: now,
      },
    });
  });
  return token;
}

async function sendVerification(user: { id: string; email: string; name: string }): Promise<void> {
  if (!(await mayMail(user.email))) return;
  const token = await issueVerificationToken(user.id);
  sendMailInBackground(verificationMessage(user.email, user.name, token, VERIFY_TOKEN_HOURS));
}

/**
 * Sign-up. The answer never tells whether the address already had an account (202, same
 * body): a new address gets a verification link; an address with an unverified account gets
 * a fresh link; one with a verified account gets an "you already have an account" notice.
 * The password is hashed in every case, so the timing does not tell either.
 */
export async function signUp(input: { email: string; password: string; name: string }) {
  const email = normalizeEmail(input.email);
  const existing = await getDb().read.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, emailVerifiedAt: true },
  });
  if (!existing) {
    try {
      const { userId } = await createConsumer({ email, password: input.password, name: input.name, plan: "free", verified: false });
      await sendVerification({ id: userId, email, name: input.name });
      return sent(email);
    } catch (err) {
      if (!(err instanceof AppError && err.code === "conflict")) throw err;
      // Lost a race with a concurrent sign-up: answer as for an existing account.
    }
  } else {
    await hashPassword(input.password); // the time createConsumer would have spent
  }
  const user =
    existing ??
    (await getDb().read.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, emailVerifiedAt: true } }));
  if (user && !user.emailVerifiedAt) await sendVerification(user);
  else if (user && (await mayMail(email))) sendMailInBackground(alreadyRegisteredMessage(email));
  return sent(email);
}

/** Sends a new verification link to an unverified account; the same answer for any address. */
export async function resendVerification(input: { email: string }) {
  const email = normalizeEmail(input.email);
  const user = await getDb().read.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, emailVerifiedAt: true },
  });
  if (user && !user.emailVerifiedAt) await sendVerification(user);
  return sent(email);
}

/** Follows a verification link: single use, 24 h; unknown, used or expired is 400 invalid_token. */
export async function verifyEmail(input: { token: string }) {
  const invalid = () => new AppError("invalid_token", "This verification link is invalid, was already used, or has expired.");
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.token)) throw invalid();
  const now = new Date();
  return getDb().write(async (tx) => {
    const row = await tx.emailToken.findUnique({ where: { tokenHash: sha256Hex(input.token) } });
    if (!row || row.purpose !== VERIFY_EMAIL_PURPOSE || row.usedAt || row.expiresAt.getTime() <= now.getTime()) throw invalid();
    // Conditional on still unused, so two concurrent uses cannot both succeed.
    const { count } = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    if (count !== 1) throw invalid();
    const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { id: true, email: true, emailVerifiedAt: true } });
    if (!user.emailVerifiedAt) await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now, updatedAt: now } });
    return { status: "verified" as const, email: user.email };
  });
}

function tooMany(seconds: number): AppError {
  return new AppError("too_many_attempts", `Too many failed logins; try again in ${seconds} s.`, undefined, {
    "retry-after": String(seconds),
  });
}

/** A limiter's refusal (its budget is spent) as 429; its store failing (Redis and the in-memory insurance both) as 503. */
function limiterError(err: unknown): AppError {
  if (err instanceof RateLimiterRes) return tooMany(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
  logger.error({ err }, "login throttle unavailable");
  return new AppError("service_unavailable", "Logging in is unavailable for a moment; try again shortly.", undefined, {
    "retry-after": "1",
  });
}

/**
 * Takes one password check from the client's and the account's budgets, or throws 429. The
 * counters are consumed atomically (in memory, or in Redis across instances), so however many
 * attempts arrive at once, and however they are batched, at most LOGIN_* of them get this far
 * in a window. An attempt refused for the account gives the client's unit back: no password
 * was checked.
 */
async function reserveLoginAttempt(perClient: Limiter, client: string, perAccount: Limiter, email: string): Promise<void> {
  try {
    await perClient.consume(client);
  } catch (err) {
    throw limiterError(err);
  }
  try {
    await perAccount.consume(email);
  } catch (err) {
    await perClient.reward(client, 1);
    throw limiterError(err);
  }
}

/**
 * Checks e-mail and password, then starts a session. Every attempt is reserved against the
 * account's and the client address's budgets (LOGIN_* above) before the password is checked;
 * once either is spent, every attempt (even a correct one) is 429 until the window ends. The
 * right password gives its attempt back, so the budgets count failures, and a successful login
 * clears the account's count.
 * A wrong password and an unknown e-mail are the same 401 (verifyPassword spends the same
 * time on both); a correct password on an unverified address is 403.
 */
export async function login(input: { email: string; password: string; client: string }) {
  const email = normalizeEmail(input.email);
  const perAccount = getLimiter("login-attempt-account", LOGIN_ACCOUNT_FAILURES, LOGIN_WINDOW_SECONDS);
  const perClient = getLimiter("login-attempt-client", LOGIN_CLIENT_FAILURES, LOGIN_WINDOW_SECONDS);
  await reserveLoginAttempt(perClient, input.client, perAccount, email);

  const user = await getDb().read.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, emailVerifiedAt: true, tenant: { select: { kind: true } } },
  });
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new AppError("invalid_credentials", "The e-mail address or the password is wrong.");
  await Promise.all([perClient.reward(input.client, 1), user.emailVerifiedAt ? perAccount.delete(email) : perAccount.reward(email, 1)]);
  if (!user.emailVerifiedAt) {
    throw new AppError("email_not_verified", "Confirm your e-mail address first: follow the link we sent you (or ask for a new one).");
  }
  const { sid, token } = await createSession(user);
  return { session_token: token, sid, user: view(user) };
}
