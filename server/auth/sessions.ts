import "server-only";
import { decode, encode } from "next-auth/jwt";
import { sha256Hex } from "../crypto/hash";
import { deriveKey } from "../crypto/master-key";
import { getDb } from "../db";
import { AppError } from "../errors";
import { newId } from "../domain/ids";
import type { SessionPrincipal } from "../domain/accounts";
import { scopesOfTenantKind } from "../domain/accounts";

const USER_AGENT_CHARS = 256;

/** How long a session lasts (next-auth's default maxAge): 30 days, in seconds. */
export const SESSION_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * The next-auth secret, derived from the master key (never configured separately): /v1 login
 * and the next-auth route (server/auth/next-auth.ts) encode and decode the same JWTs.
 */
let secret: string | undefined;
export function sessionSecret(): string {
  secret ??= deriveKey("next-auth-session").toString("base64url");
  return secret;
}

/** The claims of a session token (a next-auth JWT, encrypted with the derived secret). */
export interface SessionClaims {
  sub: string;
  sid: string;
  email: string;
  name: string;
}

/**
 * Starts a session for a user: a Session row (holding only the SHA-256 of the token) and the
 * token, a next-auth JWT carrying `sub` (the user id) and `sid` (the row's id). With
 * `verifiedHash` (a login's: the password hash its password was checked against), the row is
 * written only while that is still the account's password: a login checked just before a reset
 * and writing its session just after it would otherwise leave a session the reset never ended.
 */
export async function createSession(
  user: { id: string; email: string; name: string; verifiedHash?: string | null },
  seen: { userAgent?: string | null; clientAddress?: string | null } = {},
): Promise<{ sid: string; token: string }> {
  const sid = newId();
  const claims: SessionClaims = { sub: user.id, sid, email: user.email, name: user.name };
  const token = await encode({ token: { ...claims }, secret: sessionSecret(), maxAge: SESSION_MAX_AGE });
  const now = new Date();
  await getDb().write(async (tx) => {
    if (user.verifiedHash !== undefined) {
      const current = await tx.user.findUnique({ where: { id: user.id }, select: { passwordHash: true } });
      if (!current || current.passwordHash !== user.verifiedHash) {
        throw new AppError("invalid_credentials", "The e-mail address or the password is wrong.");
      }
    }
    await tx.session.create({
      data: {
        id: sid,
        userId: user.id,
        tokenHash: sha256Hex(token),
        // What the owner is shown in the list of their sessions; bounded, whatever was sent.
        userAgent: seen.userAgent?.slice(0, USER_AGENT_CHARS) || null,
        clientAddress: seen.clientAddress || null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SESSION_MAX_AGE * 1000),
      },
    });
  });
  return { sid, token };
}

/** The claims of a token whose encryption and expiry check out, else null. */
export async function decodeSessionToken(token: string): Promise<SessionClaims | null> {
  try {
    const payload = await decode({ token, secret: sessionSecret() });
    if (!payload || typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { sub: payload.sub, sid: payload.sid, email: String(payload.email ?? ""), name: String(payload.name ?? "") };
  } catch {
    return null;
  }
}

/**
 * The live session a token's claims name: not ended, not expired, its user still there. Read
 * from the database on every request, so a logout on any instance holds at once everywhere.
 * The row is found by `sid`: the JWT is authenticated encryption under our secret, so its
 * claims cannot be forged, and next-auth may re-encode (roll) the token with the same sid.
 */
export async function liveSession(claims: SessionClaims) {
  const row = await getDb().read.session.findUnique({
    where: { id: claims.sid },
    select: {
      id: true,
      userId: true,
      expiresAt: true,
      endedAt: true,
      user: { select: { id: true, tenantId: true, tenant: { select: { kind: true } } } },
    },
  });
  if (!row || row.endedAt || row.expiresAt.getTime() <= Date.now() || row.userId !== claims.sub || !row.user) return null;
  return row;
}

/** Resolves a session token (cookie or Authorization: Bearer) to its principal, else 401 invalid_session. */
export async function authenticateSessionToken(token: string): Promise<SessionPrincipal> {
  const invalid = () => new AppError("invalid_session", "The session is invalid or has ended.");
  const claims = await decodeSessionToken(token);
  if (!claims) throw invalid();
  const row = await liveSession(claims);
  if (!row) throw invalid();
  return {
    kind: "session",
    tenantId: row.user.tenantId,
    userId: row.userId,
    sessionId: row.id,
    scopes: new Set(scopesOfTenantKind(row.user.tenant.kind)),
  };
}

/** Ends a session for good (logout). Ending an ended session changes nothing. */
export async function endSession(sessionId: string): Promise<void> {
  await getDb().write((tx) => tx.session.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: new Date() } }));
}
