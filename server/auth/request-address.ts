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
