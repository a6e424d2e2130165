// How the dashboard's tRPC client may batch calls; shared by the client (app/_trpc/client.tsx)
// and the endpoint that enforces it (server/http/trpc-request.ts). No server imports: the
// browser bundle imports this file.

/** The most calls one /api/trpc request may carry. */
export const MAX_BATCH_CALLS = 10;

/**
 * Account calls (sign-up, login, verification) are never batched: each is throttled per call,
 * and a batch would let one request carry hundreds of password checks. A mint is sent alone too:
 * its Idempotency-Key travels as the request's header. The witness's calls are alone too: each
 * is budgeted per request and costs a signature check, which a batch would multiply.
 */
export const isUnbatchable = (path: string): boolean =>
  path.startsWith("consumerAuth.") || path === "consumer.mint" || path.startsWith("witness.");
