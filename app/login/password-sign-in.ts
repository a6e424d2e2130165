import { type ErrorInfo, errorInfo, failureOfResponse, fetchOrFail } from "@/lib/request-failure";

export type SignInResult = { ok: true } | ({ ok: false } & ErrorInfo);

/**
 * Logs in with an e-mail address and password through next-auth's REST API, as next-auth/react's
 * `signIn("credentials", { redirect: false })` does (GET /api/auth/csrf, then POST
 * /api/auth/callback/credentials with `json=true`), but reading every answer: `signIn` throws
 * on an answer that is not next-auth's own (the gate's 403, a 429 with Retry-After, a 5xx, no
 * answer at all), which would leave the form waiting for good. Never throws.
 */
export async function signInWithPassword(email: string, password: string): Promise<SignInResult> {
  try {
    const csrf = await fetchOrFail("/api/auth/csrf");
    if (!csrf.ok) throw await failureOfResponse(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetchOrFail("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken, json: "true" }),
    });
    // next-auth's own outcomes name where it would go next; a refused login names its code there.
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { url?: unknown } | null;
    if (typeof body?.url === "string") {
      const code = new URL(body.url, window.location.href).searchParams.get("error");
      if (!code && res.ok) return { ok: true };
      if (code) return { ok: false, code, message: "Logging in failed. Please try again.", retryAfter: null };
    }
    throw await failureOfResponse(res);
  } catch (err) {
    return { ok: false, ...errorInfo(err) };
  }
}
