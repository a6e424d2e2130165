import "server-only";
import { AppError } from "../errors";
import type { SessionPrincipal } from "../domain/accounts";
import { authenticateSessionToken } from "./sessions";
import { sessionTokenFromRequest } from "./session-cookie";

/** A session token's principal, or null when it is forged, expired or ended (the pages then ask to log in). */
export async function sessionPrincipalOrNull(token: string | null | undefined): Promise<SessionPrincipal | null> {
  if (!token) return null;
  try {
    return await authenticateSessionToken(token);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/**
 * The dashboard's caller: the session cookie next-auth set (the same session /v1 accepts).
 * API keys are not accepted here; they are for /v1.
 */
export const dashboardPrincipal = (req: Request): Promise<SessionPrincipal | null> => sessionPrincipalOrNull(sessionTokenFromRequest(req));
