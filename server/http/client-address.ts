import "server-only";

/**
 * The address a request came from, for throttling logins and sign-ups. The gate
 * (server/gate/client-address.mjs) decides it from the connection and the trusted proxies
 * (HALLMARK_TRUSTED_PROXIES) and writes it as the request's only X-Forwarded-For entry; a
 * value a client sent never gets this far. Without it (a caller outside the HTTP server),
 * every such request shares one "unknown" bucket.
 */
export function clientAddress(headers: { get(name: string): string | null }): string {
  const forwarded = headers.get("x-forwarded-for")?.trim();
  return forwarded ? forwarded.slice(0, 64) : "unknown";
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * For the endpoints used to obtain a session (sign-up, verification, login): a session cookie
 * or Bearer token sent along is ignored, so a stale cookie cannot lock anyone out of logging
 * in again. An X-API-Key sent is still checked (an invalid one is 401).
 */
export function ignoringSession(handler: Handler): Handler {
  return (req, ctx) => {
    if (!req.headers.has("cookie") && !req.headers.has("authorization")) return handler(req, ctx);
    const headers = new Headers(req.headers);
    headers.delete("cookie");
    headers.delete("authorization");
    const stripped = new Request(req.url, {
      method: req.method,
      headers,
      body: req.body,
      duplex: "half",
      signal: req.signal,
    } as RequestInit);
    return handler(stripped, ctx);
  };
}
