/**
 * Every way a request from the web app's pages can fail, in words for people: no answer at all
 * (the network), Hallmark's own refusals (a tRPC error, or problem+json from the gate or a route:
 * 403, 413, 429 with Retry-After, 503), and answers from something between (a proxy's 502 page).
 * Forms show `errorInfo(err).message` for anything a request threw, so none of them can be left
 * waiting or silent. Pure apart from `fetch`: used in the browser only.
 */
import { TRPCClientError } from "@trpc/client";
import ERRORS from "./errors.json";

/** A request that got no answer, or an answer that is not a tRPC one. */
export class RequestFailure extends Error {
  constructor(
    message: string,
    /** The HTTP status; null when no answer came. */
    readonly status: number | null,
    /** Hallmark's stable problem code, when the answer carried one. */
    readonly code: string | null,
    /** Seconds the answer's Retry-After asked to wait, when it had one. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "RequestFailure";
  }
}

export const NETWORK_MESSAGE = "Hallmark could not be reached. Check your connection, then try again.";

/** Seconds a Retry-After header asks to wait (delta-seconds or an HTTP date), or null. */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/** "in 40 seconds", "in 15 minutes", "in 3 hours", "in 5 days": a wait rounded up to the unit people use for it. */
export function waitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return relative.format(s, "second");
  if (s < 90 * 60) return relative.format(Math.ceil(s / 60), "minute");
  if (s < 36 * 3600) return relative.format(Math.ceil(s / 3600), "hour");
  return relative.format(Math.ceil(s / 86_400), "day");
}

const titleOf = (code: string | null) => (code && code in ERRORS ? ERRORS[code as keyof typeof ERRORS].title : null);

/** True when a sentence already says how long to wait ("retry in 40 s", "resets at 2026-12-01T00:00:00Z"). */
const saysWhen = (detail: string) => /\bin \d+|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(detail);

/**
 * The words for a failed answer. `detail` is Hallmark's own sentence for it (problem+json's
 * `detail`, a tRPC error's message), shown as it is for a refusal; a 429 says how long to wait
 * (its detail does, or Retry-After in people's units); a 5xx without Hallmark's own words says
 * the status.
 */
export function failureMessage(a: {
  status: number | null;
  code: string | null;
  detail: string | null;
  retryAfter: number | null;
}): string {
  const { status, code, detail, retryAfter } = a;
  if (status === null) return NETWORK_MESSAGE;
  if (status === 429) {
    const what = detail ?? `${titleOf(code) ?? "Too many requests"}.`;
    if (retryAfter === null) return detail ?? `${what} Wait a little, then try again.`;
    return saysWhen(what) ? what : `${what} Try again ${waitInWords(retryAfter)}.`;
  }
  if (status >= 500) {
    if (detail && code && code !== "internal_error") return detail;
    const when = retryAfter !== null ? waitInWords(retryAfter) : "in a moment";
    return `Something went wrong on the server's side (HTTP ${status}). Nothing was lost: try again ${when}.`;
  }
  return detail ?? `Hallmark refused this request (HTTP ${status}). Reload the page and try again.`;
}

/** The failure an answer that is not OK stands for, read from its body (problem+json, tRPC's error, or anything). */
export async function failureOfResponse(res: Response): Promise<RequestFailure> {
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => null);
  const b = (body ?? {}) as { detail?: unknown; code?: unknown; error?: { message?: unknown; data?: { appCode?: unknown } } };
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
  const detail = text(b.detail) ?? text(b.error?.message);
  const code = text(b.code) ?? text(b.error?.data?.appCode);
  const retryAfter = retryAfterSeconds(res.headers.get("retry-after"));
  return new RequestFailure(failureMessage({ status: res.status, code, detail, retryAfter }), res.status, code, retryAfter);
}

/** fetch, with no answer at all (offline, refused, reset) thrown as a RequestFailure; an abort stays an abort. */
export async function fetchOrFail(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    if ((err as { name?: string } | null)?.name === "AbortError") throw err;
    throw new RequestFailure(NETWORK_MESSAGE, null, null);
  }
}

/**
 * The tRPC client's fetch: tRPC's own JSON answers go to tRPC (its errors carry Hallmark's
 * words); anything else that is not OK (problem+json from the gate or a route, a proxy's page)
 * becomes a RequestFailure, which tRPC passes on as its error's cause.
 */
export async function trpcFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetchOrFail(input, init);
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!res.ok && type !== "application/json") throw await failureOfResponse(res);
  return res;
}

export interface ErrorInfo {
  /** What happened and what to do, for people. */
  message: string;
  /** Hallmark's stable code, when the answer had one (for tests and logic). */
  code: string | null;
  /** Seconds to wait before trying again, when the answer said (Retry-After). */
  retryAfter: number | null;
}

/** Any failed request (a tRPC call, fetchOrFail, failureOfResponse), in words. */
export function errorInfo(err: unknown): ErrorInfo {
  const cause = err instanceof TRPCClientError ? err.cause : err;
  if (cause instanceof RequestFailure) return { message: cause.message, code: cause.code, retryAfter: cause.retryAfter };
  if (err instanceof TRPCClientError) {
    const data = err.data as { httpStatus?: number; appCode?: string | null } | undefined;
    if (!data) return { message: "Hallmark's answer could not be read. Try again in a moment.", code: null, retryAfter: null };
    const status = data.httpStatus ?? 500;
    const code = data.appCode ?? null;
    // A call sent alone has its answer's headers; a batch's items have none.
    const response = (err.meta as { response?: Response } | undefined)?.response;
    const retryAfter = retryAfterSeconds(response?.headers.get("retry-after"));
    return { message: failureMessage({ status, code, detail: err.message || null, retryAfter }), code, retryAfter };
  }
  const e = err as { message?: string } | null;
  return { message: e?.message || "Something went wrong. Please try again.", code: null, retryAfter: null };
}
