import "server-only";
import { AppError } from "../domain/errors";
import type { SessionPrincipal } from "../domain/principal";
import { authenticateSessionToken, sessionTokenFromRequest } from "../domain/sessions";

/**
 * The dashboard's caller: the session cookie next-auth set (the same session /v1 accepts).
 * An ended or forged session is simply no session: the pages then ask to sign in again.
 * API keys are not accepted here; they are for /v1.
 */
export async function dashboardPrincipal(req: Request): Promise<SessionPrincipal | null> {
  const token = sessionTokenFromRequest(req);
  if (!token) return null;
  try {
    return await authenticateSessionToken(token);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}
