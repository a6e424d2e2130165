/**
 * What an API key may do (shared with browsers: the pages show it). A key holds a subset; every procedure names the one scope it needs.
 * Consumers (personal tenants) hold CONSUMER_SCOPES only: their keys and sessions reach the
 * consumer endpoints, their own API keys and the attestations of their own protections, never
 * an organisation's issuers or attestations.
 *   attestations:read   GET attestations and their proof bundles (a consumer reads its own with protections:read)
 *   attestations:write  POST /v1/attestations (sign and log with the tenant's issuers)
 *   issuers:read        list and read issuers and their public keys
 *   issuers:write       create issuers, rotate their signing keys
 *   api_keys:read       list the tenant's API keys (never their secrets)
 *   api_keys:write      create and revoke API keys
 *   protections:read    a consumer's protections and usage
 *   protections:write   mint (POST /v1/consumer/mint)
 *   packs:read          list and read verification packs (templates and custom)
 *   packs:write         create, update, archive and clone custom packs
 *   verifications:read  list and read the tenant's verifications
 *   verifications:write run a verification (POST /v1/verifications)
 * Packs and verifications are organisation features: consumers hold none of their scopes.
 */
export const SCOPES = [
  "attestations:read",
  "attestations:write",
  "issuers:read",
  "issuers:write",
  "api_keys:read",
  "api_keys:write",
  "protections:read",
  "protections:write",
  "packs:read",
  "packs:write",
  "verifications:read",
  "verifications:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export const ORGANIZATION_SCOPES: readonly Scope[] = SCOPES.filter((s) => !s.startsWith("protections:"));
export const CONSUMER_SCOPES: readonly Scope[] = ["protections:read", "protections:write", "api_keys:read", "api_keys:write"];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/**
 * What a signed-in user (a session) may do: a consumer holds CONSUMER_SCOPES; the owner of an
 * organisation, signed in to the console, holds every organisation scope.
 */
export const scopesOfTenantKind = (kind: string): readonly Scope[] => (kind === "ORGANIZATION" ? ORGANIZATION_SCOPES : CONSUMER_SCOPES);
