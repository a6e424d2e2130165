/**
 * Where to send someone after logging in: `next` resolved against `origin` exactly as a browser
 * would resolve it (the URL parser strips tabs and newlines, reads "\" as "/", treats "//host"
 * as another host), and kept only when it stays on `origin`; then its path, query and fragment.
 * Anything else, malformed included, is `fallback`. The decision is taken on the parsed URL,
 * never on a pattern of the raw text. Pure: used by the login page and next-auth's redirects.
 */
export function sameOriginPath(next: string | null | undefined, origin: string, fallback: string): string {
  if (!next) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  return url.pathname + url.search + url.hash;
}
