import type { ApiKeyPrincipal } from "./api-keys";
import type { Scope } from "./scopes";

/** A consumer signed in with e-mail and password (cookie or Authorization: Bearer). */
export interface SessionPrincipal {
  kind: "session";
  tenantId: string;
  userId: string;
  sessionId: string;
  /** CONSUMER_SCOPES: a session may do whatever a consumer may. */
  scopes: ReadonlySet<Scope>;
}

/** Who a request runs for. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;
