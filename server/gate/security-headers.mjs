// @ts-check
// The security headers of every answer, in one place. The gate (gate.mjs) sets them before
// Next.js or Hallmark's code runs, so error pages, 404s and the gate's own refusals carry them too.

/** Powerful features Hallmark never uses; denied to the page and to anything it embeds. */
const PERMISSIONS = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "usb=()",
  "browsing-topics=()",
].join(", ");

/**
 * What kind of answer a path gets: JSON (the API), a static file of the build, or a page.
 * @param {string} path
 * @returns {"api" | "static" | "page"}
 */
export function kindOfPath(path) {
  if (path.startsWith("/v1/") || path === "/v1" || path.startsWith("/api/") || path.startsWith("/bench/")) return "api";
  if (path.startsWith("/_next/static/") || path.startsWith("/_next/image")) return "static";
  return "page";
}

/**
 * A policy from its directives: null leaves one out, "" writes its name alone.
 * @param {Record<string, string | null>} d
 */
const directives = (d) =>
  Object.entries(d)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => (v === "" ? k : `${k} ${v}`))
    .join("; ");

/**
 * The header sets, built once per process.
 * - Every answer: nosniff, the referrer policy, the permissions policy, no framing
 *   (X-Frame-Options for browsers without CSP frame-ancestors) and, under an https base URL, HSTS.
 * - API answers are data: a CSP that lets nothing load or run, and no framing.
 * - Static files of the build include the hashing worker's script: a worker takes the CSP of its
 *   own script's answer, and hash-wasm compiles WebAssembly ('wasm-unsafe-eval').
 * - Pages: a per-request nonce that Next.js puts on its own scripts ('strict-dynamic' lets
 *   those load the rest of the bundle); no inline script or style without it; no framing at all,
 *   verify and share pages included (a framed verify page could be dressed up to vouch for
 *   something it does not show; the badge is the way to show a protection elsewhere).
 * @param {{ https: boolean, dev: boolean }} options
 */
export function securityHeaders({ https, dev }) {
  const common = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS,
    "x-frame-options": "DENY",
    ...(https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
  const api = {
    ...common,
    "content-security-policy": directives({
      "default-src": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
      "form-action": "'none'",
    }),
  };
  const staticFiles = {
    ...common,
    "content-security-policy": directives({
      "default-src": "'self'",
      "script-src": "'self' 'wasm-unsafe-eval'",
      "object-src": "'none'",
      "base-uri": "'none'",
      "frame-ancestors": "'none'",
    }),
  };
  const pageCommon = { ...common, "cross-origin-opener-policy": "same-origin" };
  /**
   * The page policy for one request's nonce. /docs (the API reference, Scalar's bundle served
   * from this origin) differs in styles only: the bundle injects <style> elements and style
   * attributes at run time, so styles there are 'unsafe-inline' (a nonce would turn that off).
   * Its scripts are held to the same rule as every page (no eval: zod's probe for it is refused,
   * and it falls back).
   * @param {string} nonce
   * @param {{ inlineStyles?: boolean }} [options]
   */
  const pagePolicy = (nonce, { inlineStyles = false } = {}) =>
    directives({
      "default-src": "'self'",
      // Development: React's debugging uses eval, and Fast Refresh talks over a WebSocket.
      "script-src": `'self' 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${dev ? " 'unsafe-eval'" : ""}`,
      "style-src": inlineStyles ? "'self' 'unsafe-inline'" : `'self' 'nonce-${nonce}'${dev ? " 'unsafe-inline'" : ""}`,
      "img-src": "'self' data: blob:",
      "font-src": "'self'",
      "connect-src": dev ? "'self' ws: wss:" : "'self'",
      "worker-src": "'self' blob:",
      "manifest-src": "'self'",
      "object-src": "'none'",
      "base-uri": "'none'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
      "upgrade-insecure-requests": https ? "" : null,
    });
  return { api, staticFiles, pageCommon, pagePolicy };
}
