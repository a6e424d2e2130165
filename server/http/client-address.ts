import "server-only";

/**
 * The address a request came from, for throttling logins. Route handlers do not see the
 * socket; `next start` puts the socket's address into X-Forwarded-For when the request has
 * none. Behind a reverse proxy that appends to X-Forwarded-For (nginx
 * `$proxy_add_x_forwarded_for`, most load balancers), the LAST entry is the address the
 * nearest proxy saw, which a client cannot forge; earlier entries can be. So the last entry
 * is used, then X-Real-IP, then one shared "unknown" bucket.
 */
export function clientAddress(headers: { get(name: string): string | null }): string {
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const last = forwarded.at(-1) ?? headers.get("x-real-ip")?.trim();
  return last ? last.replace(/^::ffff:/, "").slice(0, 64) : "unknown";
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
    const stripped = new Request(req.url, { method: req.method, headers, body: req.body, duplex: "half", signal: req.signal } as RequestInit);
    return handler(stripped, ctx);
  };
}
