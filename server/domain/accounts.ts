import "server-only";
import { logger } from "../observability/logger.mjs";
import { getDb } from "../db";
import { verifyPassword } from "../crypto/passwords";
import { RateLimiterRes } from "rate-limiter-flexible";
import { getLimiter, type Limiter } from "../limits/limiter";
import { normalizeEmail } from "./consumers";
import { AppError } from "./errors";
import { pendingRegistrationMatches } from "./registration";
import { createSession } from "../auth/sessions";

/** The realm login reports: a consumer's personal account, or the owner of an organisation (the console). */
export const CONSUMER_REALM = "consumer";
export const ORGANIZATION_REALM = "organization";
export type Realm = typeof CONSUMER_REALM | typeof ORGANIZATION_REALM;
export const realmOfTenantKind = (kind: string): Realm => (kind === "ORGANIZATION" ? ORGANIZATION_REALM : CONSUMER_REALM);

/** Login throttling: password checks per account (e-mail) and per client address, in a fixed window (the right password gives its check back). */
export const LOGIN_ACCOUNT_FAILURES = 5;
export const LOGIN_CLIENT_FAILURES = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

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
const notVerified = () =>
  new AppError("email_not_verified", "Confirm your e-mail address first: follow the link we sent you (or ask for a new one).");

export async function login(input: { email: string; password: string; client: string; userAgent?: string | null }) {
  const email = normalizeEmail(input.email);
  const perAccount = getLimiter("login-attempt-account", LOGIN_ACCOUNT_FAILURES, LOGIN_WINDOW_SECONDS);
  const perClient = getLimiter("login-attempt-client", LOGIN_CLIENT_FAILURES, LOGIN_WINDOW_SECONDS);
  await reserveLoginAttempt(perClient, input.client, perAccount, email);

  const user = await getDb().read.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, emailVerifiedAt: true, tenant: { select: { kind: true } } },
  });
  // An address with no account yet may have registrations waiting for their link.
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await pendingRegistrationMatches(email, input.password);
  if (!user || !ok) {
    if (ok) {
      await Promise.all([perClient.reward(input.client, 1), perAccount.reward(email, 1)]);
      throw notVerified();
    }
    throw new AppError("invalid_credentials", "The e-mail address or the password is wrong.");
  }
  await Promise.all([perClient.reward(input.client, 1), user.emailVerifiedAt ? perAccount.delete(email) : perAccount.reward(email, 1)]);
  if (!user.emailVerifiedAt) throw notVerified();
  const { sid, token } = await createSession(user, { userAgent: input.userAgent, clientAddress: input.client });
  return { session_token: token, sid, user: view(user) };
}
