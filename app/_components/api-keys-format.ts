// Small helpers shared by the API-key and issuer pages (console and creator dashboard).
import { SCOPES, type Scope } from "@/lib/scopes";

/** What each scope lets a key do, in one line (from the comment in lib/scopes.ts). */
export const SCOPE_HELP: Record<Scope, string> = {
  "attestations:read": "Read attestations and their proof bundles.",
  "attestations:write": "Sign attestations with your issuers and record them in the log (POST /v1/attestations).",
  "issuers:read": "List and read issuers and their public keys.",
  "issuers:write": "Create issuers and rotate their signing keys.",
  "api_keys:read": "List this account's API keys (never their secrets).",
  "api_keys:write": "Create and revoke API keys.",
  "protections:read": "Read your protections and usage.",
  "protections:write": "Protect work: mint attestations (POST /v1/consumer/mint).",
  "packs:read": "List and read verification packs (templates and custom).",
  "packs:write": "Create, edit, archive and clone custom verification packs.",
  "verifications:read": "List and read past verifications.",
  "verifications:write": "Run verifications (POST /v1/verifications).",
};

/** The order scopes are offered and shown in: a creator's own first, then scopes.ts's order. */
const isProtectionScope = (s: Scope) => s.startsWith("protections:");
export const SCOPE_ORDER: readonly Scope[] = [...SCOPES.filter(isProtectionScope), ...SCOPES.filter((s) => !isProtectionScope(s))];

export const sortScopes = (scopes: readonly string[]) =>
  [...scopes].sort((a, b) => SCOPE_ORDER.indexOf(a as Scope) - SCOPE_ORDER.indexOf(b as Scope));

// A fixed locale and UTC: the same text on the server and in every browser (no hydration mismatch).
const dateTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const dateOnly = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function formatDateTime(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${dateTime.format(d)} UTC`;
}

export function formatDate(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateOnly.format(d);
}

export const formatCount = (n: number) => n.toLocaleString("en-US");
