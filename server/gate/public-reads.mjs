// @ts-check
// The API paths any web page may read (CORS): the log (checkpoint, tiles, policy, keys,
// consistency proofs), what a verify or share link shows (a public protection, its proof bundle,
// tlog-proof, certificate and badge), portfolios, oEmbed, lookup, and the API's own description.
// A verifier or monitor on another site reads them with fetch() as curl would.
//
// Contract: `Access-Control-Allow-Origin: *` and never Allow-Credentials, so a browser sends no
// cookie it may read the answer of (a private protection's owner view stays unreadable to another
// site), and a preflight allows no request header: X-API-Key and Authorization cannot be sent
// from another origin, so another site can read only what anyone can read with curl and no key.

const PROTECTION = /^\/v1\/protections\/[^/]+(?:\/(?:proof-bundle|tlog-proof|certificate\.pdf|badge\.svg))?$/;
const EXACT = new Set(["/v1/log", "/v1/oembed", "/v1/lookup", "/v1/openapi.json", "/v1/witness"]);

/**
 * Whether `path` (no query) is readable from any origin.
 * @param {string} path
 */
export function isPublicRead(path) {
  return (
    EXACT.has(path) ||
    path.startsWith("/v1/log/") ||
    PROTECTION.test(path) ||
    /^\/v1\/portfolios\/[^/]+$/.test(path) ||
    /^\/v1\/witness\/[0-9a-f]{64}\/checkpoint$/.test(path)
  );
}

/** Headers of every answer to a read of a public path (its errors and 429s included). */
export const PUBLIC_READ_HEADERS = {
  "access-control-allow-origin": "*",
  // What a reader needs beyond the CORS-safelisted headers: when to retry, which request to
  // report, the limits it met, and whether a proof was served before its witnesses cosigned.
  "access-control-expose-headers": "retry-after, x-request-id, ratelimit, ratelimit-policy, hallmark-witnessed",
};

/** The answer to a CORS preflight on a public path: GET and HEAD, no request header beyond the safelisted ones. */
export const PUBLIC_PREFLIGHT_HEADERS = {
  ...PUBLIC_READ_HEADERS,
  "access-control-allow-methods": "GET, HEAD",
  "access-control-max-age": "86400",
};
