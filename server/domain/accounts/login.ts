import "server-only";
import { getDb } from "../../db";
import { verifyPassword } from "../../crypto/passwords";
import type { RateLimiterRes } from "rate-limiter-flexible";
import { attemptRefusal, tooManyAttempts } from "../../limits/attempts";
import { throttleBucket } from "../../limits/client-bucket";
import { getLimiter } from "../../limits/limiter";
import { normalizeEmail } from "./consumers";
import { AppError } from "../../errors";

/** The realm login reports: a consumer's personal account, or the owner of an organisation (the console). */
export const CONSUMER_REALM = "consumer";
export const ORGANIZATION_REALM = "organization";
export type Realm = typeof CONSUMER_REALM | typeof ORGANIZATION_REALM;
export const realmOfTenantKind = (kind: string): Realm => (kind === "ORGANIZATION" ? ORGANIZATION_REALM : CONSUMER_REALM);

/**
 * Login throttling, in fixed windows of LOGIN_WINDOW_SECONDS; the right password gives its check back,
 * so these count failures:
 * - LOGIN_PAIR_FAILURES per (client address, account): a stranger's failures lock out only the
 *   stranger's address, never the owner's;
 * - LOGIN_CLIENT_FAILURES per client address, over every account;
 * - per account (the normalised e-mail, existing or not), against guessing from many addresses:
 *   once LOGIN_ACCOUNT_FAILURES are spent, only addresses that have not failed against the account
 *   in the window are checked (one check each, as the pair counts it), and past
 *   LOGIN_ACCOUNT_MAX_FAILURES none is. Locking an owner out takes that many addresses.
 */
export const LOGIN_PAIR_FAILURES = 5;
export const LOGIN_CLIENT_FAILURES = 20;
export const LOGIN_ACCOUNT_FAILURES = 10;
export const LOGIN_ACCOUNT_MAX_FAILURES = 50;
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

const FAILED_LOGINS = "failed logins";
const tooMany = (seconds: number) => tooManyAttempts(FAILED_LOGINS, seconds);
const limiterError = (err: unknown) => attemptRefusal(err, FAILED_LOGINS);

/** The login budgets (LOGIN_* above), one process-wide limiter each. */
const loginLimiters = () => ({
  perClient: getLimiter("login-attempt-client", LOGIN_CLIENT_FAILURES, LOGIN_WINDOW_SECONDS),
  perPair: getLimiter("login-attempt-pair", LOGIN_PAIR_FAILURES, LOGIN_WINDOW_SECONDS),
  perAccount: getLimiter("login-attempt-account", LOGIN_ACCOUNT_MAX_FAILURES, LOGIN_WINDOW_SECONDS),
});
type LoginLimiters = ReturnType<typeof loginLimiters>;

/** The pair counter's key: the client address and the account, which neither can forge into the other. */
const pairKey = (client: string, email: string) => `${client.length}:${client}:${email}`;

/**
 * Takes one password check from the client's, the pair's and the account's budgets, or throws 429.
 * The counters are consumed atomically (in memory, or in Redis across instances), so however many
 * attempts arrive at once, and however they are batched, at most LOGIN_* of them get this far in a
 * window. An attempt refused gives back what it took from the budgets before the one that refused
 * it: no password was checked.
 */
async function reserveLoginAttempt(l: LoginLimiters, client: string, email: string): Promise<void> {
  const pair = pairKey(client, email);
  try {
    await l.perClient.consume(client);
  } catch (err) {
    throw limiterError(err);
  }
  let pairRes: RateLimiterRes;
  try {
    pairRes = await l.perPair.consume(pair);
  } catch (err) {
    await l.perClient.reward(client, 1);
    throw limiterError(err);
  }
  let accountRes: RateLimiterRes;
  try {
    accountRes = await l.perAccount.consume(email);
  } catch (err) {
    await Promise.all([l.perClient.reward(client, 1), l.perPair.reward(pair, 1)]);
    throw limiterError(err);
  }
  // Past the account's first failures, an address that has failed against it already waits until
  // its own failures or the account's expire, whichever is first.
  if (accountRes.consumedPoints > LOGIN_ACCOUNT_FAILURES && pairRes.consumedPoints > 1) {
    await Promise.all([l.perClient.reward(client, 1), l.perPair.reward(pair, 1), l.perAccount.reward(email, 1)]);
    throw tooMany(Math.max(1, Math.ceil(Math.min(pairRes.msBeforeNext, accountRes.msBeforeNext) / 1000)));
  }
}

/**
 * Checks e-mail and password (the session is auth/login.ts's to start). Every attempt is reserved against the
 * client address's, the (address, account) pair's and the account's budgets (LOGIN_* above)
 * before the password is checked; an attempt they refuse (even a correct one) is 429 until the
 * window ends. The right password gives its attempt back, so the budgets count failures, and a
 * successful login clears the pair's count (the account's stays: it bounds guessing from other
 * addresses).
 * Only a verified account logs in. Anything else is the one 401, spending the time of one
 * password check: a wrong password, an unknown address, an unverified account's right password,
 * and a pending sign-up's password (never checked: a login that told "confirm first" would tell
 * that the address has no account yet). The sign-up page and mail say to follow the link first.
 */
export async function checkLogin(input: { email: string; password: string; client: string }) {
  const email = normalizeEmail(input.email);
  const l = loginLimiters();
  const client = throttleBucket(input.client);
  await reserveLoginAttempt(l, client, email);

  const user = await getDb().read.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true, emailVerifiedAt: true, tenant: { select: { kind: true } } },
  });
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user?.emailVerifiedAt || !ok) throw new AppError("invalid_credentials", "The e-mail address or the password is wrong.");
  await Promise.all([l.perClient.reward(client, 1), l.perAccount.reward(email, 1), l.perPair.delete(pairKey(client, email))]);
  return { account: { id: user.id, email: user.email, name: user.name, verifiedHash: user.passwordHash }, user: view(user) };
}
