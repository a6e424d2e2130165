import "server-only";
import { AppError } from "./errors";
import type { SessionPrincipal } from "./principal";

/** The session cookie's name (next-auth's, so the dashboard and /v1 share one session). */
export const SESSION_COOKIE = "next-auth.session-token";

/** The session token a request presents: Authorization: Bearer, else the session cookie. */
export function sessionTokenFromRequest(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim() || null;
  const cookies = req.headers.get("cookie") ?? "";
  for (const part of cookies.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE || name === `__Secure-${SESSION_COOKIE}`) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** Resolves a session token; implemented with login (issue 3, accounts slice). */
export async function authenticateSessionToken(token: string): Promise<SessionPrincipal> {
  void token;
  throw new AppError("invalid_session", "The session is invalid or has ended.");
}
