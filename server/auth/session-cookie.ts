import "server-only";
import { getConfig } from "../config";
import { SESSION_MAX_AGE } from "./sessions";

/** The session cookie's name (next-auth's, so the dashboard and /v1 share one session). */
export const SESSION_COOKIE = "next-auth.session-token";

/** Secure cookies unless the base URL is plain http (local development). */
export const secureCookies = (): boolean => getConfig().baseUrl.startsWith("https://");

/**
 * The one session cookie name accepted: next-auth's `__Secure-` prefixed name under an https
 * base URL (a browser keeps such a cookie only from a secure origin, so a plain-http page of a
 * sibling host cannot plant one: cookie tossing), the plain name otherwise.
 */
export const sessionCookieName = (): string => (secureCookies() ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE);

/**
 * The session token in a Cookie header, or null. Malformed cookies are treated as absent
 * (never an error), and so are two cookies of the session's name: one of them was planted by
 * another host of the site (cookie tossing), and which is which cannot be told.
 */
export function sessionTokenFromCookieHeader(header: string | null): string | null {
  if (!header) return null;
  const name = sessionCookieName();
  let found: string | null = null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    if (found !== null) return null;
    found = part.slice(eq + 1).trim();
  }
  // Tokens are JWEs (base64url and dots); anything else cannot be one.
  return found && /^[A-Za-z0-9._-]{1,8192}$/.test(found) ? found : null;
}

/** The session token a request presents: Authorization: Bearer, else the session cookie. */
export function sessionTokenFromRequest(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim() || null;
  return sessionTokenFromCookieHeader(req.headers.get("cookie"));
}

function cookie(value: string, maxAge: number): string {
  const parts = [`${sessionCookieName()}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`];
  if (secureCookies()) parts.push("Secure");
  return parts.join("; ");
}

/** The Set-Cookie value carrying a session token. */
export const sessionCookie = (token: string): string => cookie(token, SESSION_MAX_AGE);
/** The Set-Cookie value removing the session cookie. */
export const clearedSessionCookie = (): string => cookie("", 0);
