import "server-only";
import { authenticateApiKey } from "../domain/accounts";
import { AppError } from "../errors";
import type { Principal } from "../domain/accounts";
import { sessionTokenFromRequest } from "../auth/session-cookie";
import { authenticateSessionToken } from "../auth/sessions";
import { enforceKeyLimits, enforceSessionLimits } from "./principal-limits";

/**
 * Who sent the request: an X-API-Key, else a session (Authorization: Bearer or the session
 * cookie; ignored in "no-session" mode, for the endpoints that obtain one, so a stale cookie cannot
 * lock anyone out). Credentials that are sent must be valid even where none are required. A key's
 * per-minute and daily limits, and a session's account's, are enforced here, on every request
 * they authenticate; their RateLimit headers are written into `limitHeaders`.
 */
export async function authenticate(
  req: Request,
  mode: "required" | "optional" | "no-session",
  limitHeaders: Record<string, string>,
): Promise<Principal | null> {
  const key = req.headers.get("x-api-key");
  if (key !== null && key !== "") {
    const principal = await authenticateApiKey(key.trim());
    await enforceKeyLimits(principal, limitHeaders);
    return principal;
  }
  const token = mode === "no-session" ? null : sessionTokenFromRequest(req);
  if (token) {
    const principal = await authenticateSessionToken(token);
    await enforceSessionLimits(principal, limitHeaders);
    return principal;
  }
  if (mode === "required") {
    throw new AppError("unauthenticated", "Send an API key in X-API-Key, or a session (cookie or Authorization: Bearer).");
  }
  return null;
}
