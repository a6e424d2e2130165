// @ts-check
// Cross-site request refusal for the API (/v1 and /api: tRPC and next-auth).
//
// A browser attaches cookies to requests that other sites make it send (a form POST, a fetch
// with credentials), and SameSite=Lax does not stop a sibling origin of the same site. So a
// request that changes anything and is not carried by a credential a page cannot attach across
// origins must prove it comes from Hallmark's own origin: its Origin header, or, without one,
// Sec-Fetch-Site: same-origin. Browsers send one of the two on every such request.
//
// Not affected: X-API-Key on /v1 and Authorization: Bearer. A page can send those headers to
// another origin only after a CORS preflight, which Hallmark never grants.

export const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const BEARER = /^bearer\s/i;

/**
 * Why an unsafe request to the API is refused, or null when it may go on.
 * `headers` are Node's lower-cased request headers; `baseOrigin` is HALLMARK_BASE_URL's origin.
 * - A foreign Origin (or "null") or a Sec-Fetch-Site other than same-origin is refused, whatever
 *   the cookies: the login and sign-up endpoints included, so no page elsewhere can log a
 *   visitor in to another account either.
 * - Without either header, a request carrying cookies is refused (it cannot show where it
 *   comes from); one without cookies (curl, a server) has no ambient credential to misuse.
 * @param {string} method
 * @param {string} path
 * @param {import("node:http").IncomingHttpHeaders} headers
 * @param {string} baseOrigin
 * @returns {string | null}
 */
export function crossOriginRefusal(method, path, headers, baseOrigin) {
  if (!UNSAFE_METHODS.has(method)) return null;
  const key = headers["x-api-key"];
  if (path.startsWith("/v1") && typeof key === "string" && key.trim() !== "") return null;
  if (BEARER.test(headers.authorization ?? "")) return null;
  const origin = headers.origin;
  if (origin !== undefined) {
    return origin === baseOrigin
      ? null
      : `This request came from ${JSON.stringify(origin)}; Hallmark acts for a session only on requests from its own pages (${baseOrigin}). Integrations use an API key.`;
  }
  const site = headers["sec-fetch-site"];
  if (site !== undefined) {
    return site === "same-origin"
      ? null
      : `This request came from another site (Sec-Fetch-Site: ${site}); Hallmark acts for a session only on requests from its own pages. Integrations use an API key.`;
  }
  if (headers.cookie) {
    return "A request authenticated by cookie must show it comes from Hallmark's own pages (an Origin header). Integrations use an API key or Authorization: Bearer.";
  }
  return null;
}
