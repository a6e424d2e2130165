import "server-only";
import { getDb } from "../../db";
import { hashPassword, verifyPassword } from "../../crypto/passwords";
import { attemptRefusal } from "../../limits/attempts";
import { getLimiter } from "../../limits/limiter";
import { accountDeletedMessage, passwordChangedNotice } from "../../mail/messages";
import { sendMailInBackground } from "../../mail/transport";
import { logger } from "../../observability/logger.mjs";
import { realmOfTenantKind } from "./login";
import { mayMail } from "./mail-budgets";
import { endSessions, lockKeysOf, revokeKeys } from "./revocation";
import { AppError, notFound } from "../../errors";
import { iso } from "../ids";
import { planOf } from "../plans";
import type { SessionPrincipal } from "./principal";

/**
 * The signed-in person's own account: its name, password, sessions, and its deletion. Every
 * operation here takes a session (never an API key: a key is for machines, and a leaked one
 * must not be able to take the account), and those that could hand the account to someone
 * else ask for the current password again.
 */

/** Current-password checks per account (password and e-mail change, deletion): a stolen session cannot guess on. */
export const PASSWORD_CHECKS_PER_ACCOUNT = 5;
export const PASSWORD_CHECK_WINDOW_SECONDS = 15 * 60;

const wrongPassword = () =>
  new AppError("wrong_password", "The current password is wrong.", [{ pointer: "/password", detail: "is not your current password" }]);

/**
 * What a session does that outlasts it (an API key, a protection made public: its opening is
 * published for good) takes the current password in the request, whatever the session's age:
 * a stolen session must not be able to leave something behind that survives the owner's reset.
 * Missing is 422 at /password; wrong is 403 wrong_password (checkCurrentPassword).
 */
export async function checkPasswordForWhatLasts(userId: string, password: string | undefined, what: string): Promise<void> {
  if (!password) {
    throw new AppError("validation_failed", `Enter your current password: ${what} outlasts this session.`, [
      { pointer: "/password", detail: `is needed: ${what} outlasts this session` },
    ]);
  }
  await checkCurrentPassword(userId, password);
}

/**
 * Checks the account's current password, at most PASSWORD_CHECKS_PER_ACCOUNT failures a window
 * (then 429). Returns the hash it checked against, for a change that must apply only while it
 * is still the account's.
 */
export async function checkCurrentPassword(userId: string, password: string): Promise<string | null> {
  const limiter = getLimiter("password-check", PASSWORD_CHECKS_PER_ACCOUNT, PASSWORD_CHECK_WINDOW_SECONDS);
  try {
    await limiter.consume(userId);
  } catch (err) {
    throw attemptRefusal(err, "wrong passwords");
  }
  const user = await getDb().read.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, password))) throw wrongPassword();
  await limiter.reward(userId, 1);
  return user.passwordHash;
}

export async function getAccount(principal: SessionPrincipal) {
  const user = await getDb().read.user.findUniqueOrThrow({
    where: { id: principal.userId },
    select: { id: true, email: true, name: true, plan: true, createdAt: true, tenant: { select: { kind: true } } },
  });
  const realm = realmOfTenantKind(user.tenant.kind);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    realm,
    plan: realm === "consumer" ? planOf(user.plan) : null,
    created_at: iso(user.createdAt),
  };
}

/** Renames the person (and their personal tenant; an organisation keeps its own name). */
export async function renameAccount(principal: SessionPrincipal, name: string) {
  const now = new Date();
  await getDb().write(async (tx) => {
    const user = await tx.user.update({
      where: { id: principal.userId },
      data: { name, updatedAt: now },
      select: { tenant: { select: { kind: true } } },
    });
    if (user.tenant.kind === "PERSONAL") await tx.tenant.update({ where: { id: principal.tenantId }, data: { name, updatedAt: now } });
  });
  return getAccount(principal);
}

/**
 * Changes the password (the current one first), ends every other session of the account and,
 * with `revoke_api_keys`, revokes every API key too. The address gets a notice (from its notice
 * budget): if it was not the owner, the notice is what tells them to reset.
 */
export async function changePassword(
  principal: SessionPrincipal,
  input: { password: string; new_password: string; revoke_api_keys?: boolean },
  request: { client: string; userAgent: string | null },
) {
  const checked = await checkCurrentPassword(principal.userId, input.password);
  const passwordHash = await hashPassword(input.new_password);
  const now = new Date();
  const { email, ended, revoked } = await getDb().write(async (tx) => {
    // The tenant's row first, as a reset takes it: the two queue instead of deadlocking.
    await lockKeysOf(tx, principal.tenantId, now);
    // Only while the asking session is live and the password checked is still the account's: a
    // change checked just before a reset must not undo it.
    const session = await tx.session.findUnique({ where: { id: principal.sessionId }, select: { endedAt: true } });
    if (!session || session.endedAt) throw new AppError("invalid_session", "The session is invalid or has ended.");
    const changed = await tx.user.updateMany({
      where: { id: principal.userId, passwordHash: checked },
      data: { passwordHash, updatedAt: now },
    });
    if (changed.count !== 1) throw wrongPassword();
    const revoked = input.revoke_api_keys ? await revokeKeys(tx, principal.tenantId, now) : 0;
    const user = await tx.user.findUniqueOrThrow({ where: { id: principal.userId }, select: { email: true } });
    return { email: user.email, ended: await endSessions(tx, principal.userId, now, principal.sessionId), revoked };
  });
  if (await mayMail(email, "notice")) {
    sendMailInBackground(
      passwordChangedNotice(email, { at: now, client: request.client, userAgent: request.userAgent, keysRevoked: revoked }),
    );
  }
  return { status: "password_changed" as const, sessions_ended: ended, api_keys_revoked: revoked };
}

/** The account's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(principal: SessionPrincipal) {
  const rows = await getDb().read.session.findMany({
    where: { userId: principal.userId, endedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, expiresAt: true, userAgent: true, clientAddress: true },
  });
  const items = rows.map((s) => ({
    id: s.id,
    created_at: iso(s.createdAt),
    expires_at: iso(s.expiresAt),
    user_agent: s.userAgent,
    client_address: s.clientAddress,
    current: s.id === principal.sessionId,
  }));
  return { items, total: items.length };
}

/** Ends one of the account's own sessions (another person's is 404, as an unknown one). */
export async function endOwnSession(principal: SessionPrincipal, sessionId: string) {
  const { count } = await getDb().write((tx) =>
    tx.session.updateMany({ where: { id: sessionId, userId: principal.userId, endedAt: null }, data: { endedAt: new Date() } }),
  );
  if (count === 0) {
    const own = await getDb().read.session.findFirst({ where: { id: sessionId, userId: principal.userId }, select: { id: true } });
    if (!own) throw notFound("Session");
  }
  return { id: sessionId, status: "ended" as const };
}

/** Ends every session of the account but the one asking ("log out everywhere else"). */
export async function endOtherSessions(principal: SessionPrincipal) {
  const ended = await getDb().write((tx) => endSessions(tx, principal.userId, new Date(), principal.sessionId));
  return { status: "ended" as const, sessions_ended: ended };
}

/**
 * Deletes a consumer's account. The person's data goes: their name, address, password hash,
 * sessions, API keys, pending links, and every protection's record (title, description, file
 * name, type, size, AI metadata, visibility), so the verify, share and portfolio pages answer
 * "not found" from then on. What the log holds cannot go: each protection's signed entry (its
 * id, content hash and category, signed by the account's personal issuer, whose name was never
 * the person's) stays in the public log and its proofs, as the log's append-only promise
 * requires. The address is free to sign up again, as a new account.
 */
export async function deleteAccount(principal: SessionPrincipal, input: { password: string; confirm: "DELETE" }) {
  const user = await getDb().read.user.findUniqueOrThrow({
    where: { id: principal.userId },
    select: { id: true, email: true, tenantId: true, tenant: { select: { kind: true } } },
  });
  if (user.tenant.kind !== "PERSONAL") {
    throw new AppError("forbidden", "An organisation's owner is removed by the operator (npm run admin), not from the console.");
  }
  await checkCurrentPassword(user.id, input.password);
  await getDb().write(async (tx) => {
    const now = new Date();
    await tx.session.deleteMany({ where: { userId: user.id } });
    await tx.emailToken.deleteMany({ where: { OR: [{ userId: user.id }, { email: user.email }] } });
    await tx.registration.deleteMany({ where: { email: user.email } });
    await tx.apiKey.deleteMany({ where: { tenantId: user.tenantId } });
    await tx.fingerprint.deleteMany({ where: { protection: { userId: user.id } } });
    await tx.protection.deleteMany({ where: { userId: user.id } });
    await tx.usageCounter.deleteMany({ where: { userId: user.id } });
    await tx.idempotencyRecord.deleteMany({ where: { tenantId: user.tenantId } });
    await tx.user.delete({ where: { id: user.id } });
    // The tenant stays: the log's attestations and the personal issuer belong to it.
    await tx.tenant.update({ where: { id: user.tenantId }, data: { name: "Deleted account", updatedAt: now } });
  });
  logger.info({ tenant: user.tenantId }, "account deleted");
  if (await mayMail(user.email, "notice")) sendMailInBackground(accountDeletedMessage(user.email));
  return { status: "deleted" as const };
}
