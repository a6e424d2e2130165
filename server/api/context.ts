import "server-only";
import type { Principal } from "../domain/accounts";
import { clientAddress } from "../auth/request-address";

/**
 * What a procedure knows of its caller, the same for /v1, /api/trpc and server components:
 * who is calling, from where, and the request headers a procedure needs. The edges build it
 * with createContext; no procedure reads a Request.
 */
export interface Context {
  principal: Principal | null;
  /** The client's address as the gate decided it (server/auth/request-address.ts); "unknown" outside HTTP. */
  clientAddress: string;
  /** The User-Agent header (a session remembers it for its owner's list of sessions). */
  userAgent: string | null;
  /** The Idempotency-Key header, or null when none was sent. */
  idempotencyKey: string | null;
  /**
   * Headers a procedure adds to its answer (a public endpoint's RateLimit fields). /v1 sends
   * them, on errors too; /api/trpc and server components have no answer of their own to set them on.
   */
  responseHeaders: Record<string, string>;
}

type HeaderSource = { get(name: string): string | null };

/** The context of a request (or of a server component's request), for a principal already authenticated. */
export function createContext(principal: Principal | null, headers?: HeaderSource, responseHeaders: Record<string, string> = {}): Context {
  return {
    principal,
    clientAddress: headers ? clientAddress(headers) : "unknown",
    userAgent: headers?.get("user-agent") ?? null,
    idempotencyKey: headers?.get("idempotency-key") ?? null,
    responseHeaders,
  };
}

/** Who spends an expensive endpoint's budgets (consumeEndpointLimits): the client address, and the account of a key or session. */
export const callerOf = (ctx: Context) => ({ client: ctx.clientAddress, tenantId: ctx.principal?.tenantId ?? null });
