import "server-only";
import { NextRequest } from "next/server";
import { AppError } from "../errors";
import { readBodyText } from "./body";

/** The one body type next-auth is handed (what next-auth/react's signIn and signOut send). */
const FORM = "application/x-www-form-urlencoded";

/**
 * The next-auth actions the app uses (next-auth/react's signIn with redirect: false, and
 * signOut). Everything else next-auth could serve (its own sign-in, error and verify pages, GET
 * callbacks, the client logger) is not Hallmark's: 404, so no input can reach code we never use.
 */
const SERVED: Record<string, readonly string[]> = {
  GET: ["csrf", "providers", "session"],
  POST: ["callback/credentials", "signout"],
};

/**
 * Screens a request to /api/auth/* before next-auth sees it, and returns the request it should
 * get: a served action, and for a POST a form body (what next-auth/react sends) read under /v1's
 * size cap, declared to next-auth as a bare form type. next-auth reads JSON from any body whose
 * type merely mentions application/json (a parameter will do), so it is never handed one: no
 * JSON from a client reaches it. Failures are AppErrors (the route answers them as problem+json).
 */
export async function screenAuthRequest(req: NextRequest, action: string): Promise<NextRequest> {
  const methods = Object.keys(SERVED).filter((m) => SERVED[m]!.includes(action));
  if (methods.length === 0) throw new AppError("not_found", `No endpoint at /api/auth/${action}.`);
  if (!methods.includes(req.method)) {
    throw new AppError("method_not_allowed", `${req.method} is not allowed here; use ${methods.join(" or ")}.`, undefined, {
      allow: methods.join(", "),
    });
  }
  if (req.method !== "POST") return req;
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== FORM) {
    throw new AppError("unsupported_media_type", "Send the body as application/x-www-form-urlencoded.");
  }
  const body = await readBodyText(req);
  const headers = new Headers(req.headers);
  headers.set("content-type", FORM);
  return new NextRequest(req.url, { method: "POST", headers, body, signal: req.signal });
}
