// The witness policy a visitor pins in their browser on a verify page: it then replaces the one
// this log publishes, on every page that checks a proof.
export const PINNED_POLICY = "hallmark:pinned-policy";

/** The pinned policy's text, or null (none pinned, or no storage). */
export function readPinnedPolicy(): string | null {
  try {
    return window.localStorage.getItem(PINNED_POLICY);
  } catch {
    return null;
  }
}
