import type { ApiKeyPrincipal } from "./api-keys";
import type { Scope } from "@/lib/scopes";

/** A consumer signed in with e-mail and password (cookie or Authorization: Bearer). */
export interface SessionPrincipal {
  kind: "session";
  tenantId: string;
  userId: string;
  sessionId: string;
  /** scopesOfTenantKind: a consumer's CONSUMER_SCOPES, an organisation owner's ORGANIZATION_SCOPES. */
  scopes: ReadonlySet<Scope>;
}

/** Who a request runs for. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;
