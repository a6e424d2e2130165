import "server-only";
import crypto from "node:crypto";
import { sha256Hex } from "../../crypto/hash";
import type { Tx } from "../../db";
import { newId } from "../ids";

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
