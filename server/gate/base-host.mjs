// @ts-check
// Pages live at HALLMARK_BASE_URL only. A page asked for on another host name (127.0.0.1 when
// the base URL says localhost, a bare IP address, an old domain) would render, but every
// request its forms make would be cross-origin, which the API refuses (same-origin.mjs): so a
// GET or HEAD of a page on another host is redirected to the same path and query at the base
// URL, built from the configuration and never from the request.
//
// Everything else is served on any host, as before, with the host pinned to the base URL's:
// the API (/v1, /api) answers the same JSON wherever it is asked, and clients that are not
// browsers (curl, SDKs) need not follow redirects; static files; the operator's paths, which
// probes ask by IP address; and OPTIONS.
//
// Which host the visitor asked for: the Host header when browsers connect directly
// (HALLMARK_TRUSTED_PROXIES=0). Behind trusted proxies, the last X-Forwarded-Host entry (what
// the nearest proxy says it was asked for), and no redirect without one: a proxy may send its
// own upstream address as Host (nginx's and Apache's default), and redirecting on that would
// loop.

/** Paths the server answers itself for operators (scripts/serve.mjs): never redirected. */
const OPERATOR_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The host (name and port, lower case, default port dropped) a Host-like header names, or null.
 * @param {string | undefined} value
 * @param {string} protocol
 * @returns {string | null}
 */
function normalisedHost(value, protocol) {
  if (!value) return null;
  try {
    const url = new URL(`${protocol}//${value}`);
    // Anything beyond a host (a path, credentials) is not a Host header.
    return url.host && `${protocol}//${url.host}` === url.href.replace(/\/$/, "") ? url.host : "";
  } catch {
    return "";
  }
}

/**
 * The host the visitor asked for, normalised; null when it cannot be known (behind proxies that do not say).
 * @param {import("node:http").IncomingHttpHeaders} headers
 * @param {number} trustedProxies
 * @param {string} protocol
 */
export function visitorHost(headers, trustedProxies, protocol) {
  if (trustedProxies <= 0) return normalisedHost(headers.host, protocol);
  const forwarded = String(headers["x-forwarded-host"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return normalisedHost(forwarded.at(-1), protocol);
}

/**
 * Percent-encodes every byte of a request target outside printable ASCII (a header value must be).
 * @param {string} target
 */
function asciiTarget(target) {
  if (/^[\x21-\x7e]*$/.test(target)) return target;
  return [...Buffer.from(target, "latin1")]
    .map((b) => (b > 0x20 && b < 0x7f ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

/**
 * Where to send a page request asked for on another host: the base URL followed by the request's
 * own path and query; null when it stays. `base` is the base URL, parsed; `target` the request
 * line's target (starting with "/", checked by the gate before).
 * @param {{ method: string, path: string, target: string, headers: import("node:http").IncomingHttpHeaders }} request
 * @param {URL} base
 * @param {number} trustedProxies
 * @returns {string | null}
 */
export function baseHostRedirect({ method, path, target, headers }, base, trustedProxies) {
  if (method !== "GET" && method !== "HEAD") return null;
  if (OPERATOR_PATHS.has(path)) return null;
  const host = visitorHost(headers, trustedProxies, base.protocol);
  if (host === null || host === base.host) return null;
  return `${base.href.replace(/\/+$/, "")}${asciiTarget(target)}`;
}
