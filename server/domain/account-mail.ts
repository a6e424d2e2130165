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
 * or anything is written), and every message to one address, whatever sent it, comes from one
 * budget per target address (silently: the answer stays the same, so it tells nothing about the
 * address, and no more mail goes there until the window ends).
 */
export const ACCOUNT_CLIENT_LIMITS = {
  signup: { name: "signup", quota: 10, window: 3600 },
  resend: { name: "resend-verification", quota: 10, window: 3600 },
  passwordReset: { name: "password-reset", quota: 10, window: 3600 },
  emailChange: { name: "email-change", quota: 10, window: 3600 },
} as const;
export type AccountFlow = keyof typeof ACCOUNT_CLIENT_LIMITS;

/** Verification, notice and reset e-mails per target address, all flows together. */
export const MAILS_PER_ADDRESS = 5;
export const MAIL_WINDOW_SECONDS = 60 * 60;

/** Spends one of the client address's units for `flow`, or throws 429 rate_limited. */
export function throttleClient(flow: AccountFlow, client: string, headers: Record<string, string>): Promise<void> {
  return consumeClientLimit(ACCOUNT_CLIENT_LIMITS[flow], client, headers);
}

/** False once an address has had its share of mail this hour (then nothing more is sent, silently). */
export async function mayMail(email: string): Promise<boolean> {
  try {
    await getLimiter("mail-per-address", MAILS_PER_ADDRESS, MAIL_WINDOW_SECONDS).consume(email);
    return true;
  } catch (err) {
    if (err instanceof Error) throw err; // the store failed, not the budget
    logger.warn({ limit: MAILS_PER_ADDRESS, minutes: MAIL_WINDOW_SECONDS / 60 }, "mail suppressed: too many to one address");
    return false;
  }
}

/** A token for an e-mailed link: 32 random bytes, base64url; only its SHA-256 is ever stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: sha256Hex(token) };
}

/** What every link token looks like; anything else is refused before a lookup. */
export const isLinkTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Inside a write transaction: a new single-use link of `purpose` for a user, valid `minutes`;
 * the user's earlier unused links of the same purpose stop working (marked used). Returns the
 * token itself: it exists only in the e-mail.
 */
export async function issueEmailToken(
  tx: Tx,
  opts: { userId: string; purpose: string; minutes: number; email?: string; now?: Date },
): Promise<string> {
  const { token, tokenHash } = newLinkToken();
  const now = opts.now ?? new Date();
  await tx.emailToken.updateMany({ where: { userId: opts.userId, purpose: opts.purpose, usedAt: null }, data: { usedAt: now } });
  await tx.emailToken.create({
    data: {
      id: newId(),
      userId: opts.userId,
      purpose: opts.purpose,
      tokenHash,
      email: opts.email ?? null,
      expiresAt: new Date(now.getTime() + opts.minutes * 60_000),
      createdAt: now,
    },
  });
  return token;
}

/**
 * Inside a write transaction: the unused, unexpired link a token names, taken (marked used) so
 * that two concurrent uses cannot both succeed; else null.
 */
export async function takeEmailToken(tx: Tx, token: string, purposes: readonly string[], now: Date) {
  const row = await tx.emailToken.findUnique({ where: { tokenHash: sha256Hex(token) } });
  if (!row || !purposes.includes(row.purpose) || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  const { count } = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
  return count === 1 ? row : null;
}

/** Inside a write transaction: ends the user's live sessions, all but `keep` (the caller's own). */
export async function endSessions(tx: Tx, userId: string, now: Date, keep?: string): Promise<number> {
  const where = { userId, endedAt: null, ...(keep ? { id: { not: keep } } : {}) };
  return (await tx.session.updateMany({ where, data: { endedAt: now } })).count;
}

/** Inside a write transaction: revokes every active API key of a tenant, as POST /v1/api-keys/{id}/revoke does. */
export async function revokeKeys(tx: Tx, tenantId: string, now: Date): Promise<void> {
  await tx.apiKey.updateMany({ where: { tenantId, status: "ACTIVE" }, data: { status: "REVOKED", revokedAt: now } });
}
