/**
 * Where to send someone after logging in: `next` resolved against `origin` exactly as a browser
 * would resolve it (the URL parser strips tabs and newlines, reads "\" as "/", removes "." and
 * ".." segments, percent-encoded or not, treats "//host" as another host), and kept only when it
 * stays on `origin`. The answer is rebuilt from the parsed URL (path, query, fragment) and must
 * itself be a path on `origin`: a path starting "//" or "/\" (as "/.//evil.example" resolves to)
 * would name another host when the browser reads it again, so it is refused, and the answer is
 * checked to resolve back to the same URL. Anything else, malformed included, is `fallback`.
 * Decided on parsed URLs, never on a pattern of the raw text. Pure: used by the login page and
 * next-auth's redirects.
 */
export function sameOriginPath(next: string | null | undefined, origin: string, fallback: string): string {
  if (!next) return fallback;
  let own: URL;
  let url: URL;
  try {
    own = new URL(origin);
    url = new URL(next, own);
  } catch {
    return fallback;
  }
  if (url.origin !== own.origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  // What the browser will make of the answer must be the URL decided on, on this origin.
  const again = new URL(path, own);
  return again.origin === own.origin && again.href === url.href ? path : fallback;
}
