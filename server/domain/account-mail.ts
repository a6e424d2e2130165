import "server-only";
import crypto from "node:crypto";
import { logger } from "../observability/logger.mjs";
import { sha256Hex } from "../crypto/hash";
import type { Tx } from "../db";
import { consumeClientLimit } from "../limits/client-limits";
import { getLimiter } from "../limits/limiter";
import { newId } from "./ids";

/**
 * What the account flows that send mail may cost us, and who pays. Each flow has a budget per
 * client address (answered 429 `rate_limited` with Retry-After, before any password is hashed
 * or anything is written), and mail to one address comes from budgets per kind and target
 * address (MAIL_BUDGETS; silently: the answer stays the same, so it tells nothing about the
 * address, and no more mail of that kind goes there until the window ends).
 */
export const ACCOUNT_CLIENT_LIMITS = {
  signup: { name: "signup", quota: 10, window: 3600 },
  resend: { name: "resend-verification", quota: 10, window: 3600 },
  passwordReset: { name: "password-reset", quota: 10, window: 3600 },
  emailChange: { name: "email-change", quota: 10, window: 3600 },
} as const;
export type AccountFlow = keyof typeof ACCOUNT_CLIENT_LIMITS;

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
  return consumeClientLimit(ACCOUNT_CLIENT_LIMITS[flow], client, headers);
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

/** A token for an e-mailed link: 32 random bytes, base64url; only its SHA-256 is ever stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: sha256Hex(token) };
}

/** What every link token looks like; anything else is refused before a lookup. */
export const isLinkTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Inside a write transaction: a new single-use link of `purpose` for a user, valid `minutes`.
 * Unless `keepEarlier`, the user's earlier unused links of the same purpose stop working (marked
 * used). With `userId` null the row is written for no one, born used and naming no address, by
 * the same insert, so that writing it costs what writing a live one does. Returns the token
 * itself: it exists only in the e-mail.
 */
export async function issueEmailToken(
  tx: Tx,
  opts: {
    userId: string | null;
    purpose: string;
    minutes: number;
    email?: string;
    sessionId?: string;
    keepEarlier?: boolean;
    now?: Date;
  },
): Promise<string> {
  const { token, tokenHash } = newLinkToken();
  const now = opts.now ?? new Date();
  if (opts.userId && !opts.keepEarlier) {
    await tx.emailToken.updateMany({ where: { userId: opts.userId, purpose: opts.purpose, usedAt: null }, data: { usedAt: now } });
  }
  await tx.emailToken.create({
    data: {
      id: newId(),
      userId: opts.userId,
      purpose: opts.purpose,
      tokenHash,
      email: opts.userId ? (opts.email ?? null) : null,
      sessionId: opts.sessionId ?? null,
      expiresAt: new Date(now.getTime() + opts.minutes * 60_000),
      usedAt: opts.userId ? null : now,
      createdAt: now,
    },
  });
  return token;
}

/**
 * Inside a write transaction: the unused, unexpired link a token names, taken (marked used) so
 * that two concurrent uses cannot both succeed; else null. A link written for no one is never live.
 */
export async function takeEmailToken(tx: Tx, token: string, purposes: readonly string[], now: Date) {
  const row = await tx.emailToken.findUnique({ where: { tokenHash: sha256Hex(token) } });
  if (!row?.userId || !purposes.includes(row.purpose) || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  const { count } = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
  return count === 1 ? { ...row, userId: row.userId } : null;
}

/** Inside a write transaction: every pending link of the user stops working (resets, verifications, e-mail changes). */
export async function voidPendingLinks(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx.emailToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
}

/** Inside a write transaction: ends the user's live sessions, all but `keep` (the caller's own). */
export async function endSessions(tx: Tx, userId: string, now: Date, keep?: string | null): Promise<number> {
  const where = { userId, endedAt: null, ...(keep ? { id: { not: keep } } : {}) };
  return (await tx.session.updateMany({ where, data: { endedAt: now } })).count;
}

/**
 * Inside a write transaction, as its first write: takes the tenant's row (its updatedAt: the
 * write is the lock), so that key creations and revocations of one account queue on it
 * (PostgreSQL's row lock; SQLite's one writer) and a revocation cannot miss a key made beside it.
 */
export async function lockKeysOf(tx: Tx, tenantId: string, now: Date): Promise<void> {
  await tx.tenant.update({ where: { id: tenantId }, data: { updatedAt: now } });
}

/** Inside a write transaction: revokes every active API key of a tenant, as POST /v1/api-keys/{id}/revoke does; how many. */
export async function revokeKeys(tx: Tx, tenantId: string, now: Date): Promise<number> {
  await lockKeysOf(tx, tenantId, now);
  return (await tx.apiKey.updateMany({ where: { tenantId, status: "ACTIVE" }, data: { status: "REVOKED", revokedAt: now } })).count;
}
