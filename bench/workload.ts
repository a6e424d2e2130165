// What one load run sends and what it reports: the terms of load.ts and of the generators it
// drives (wrk.ts), kept apart so that neither imports the other for them.

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  ok: number;
  errors: number;
}

/**
 * What to send. Templates vary per request: CONTENT_HASH becomes 64 fresh hex digits, PDQ_HASH 64
 * random hex digits (a perceptual hash: every window's value varies), UNIQUE 16 fresh hex digits
 * (a fresh e-mail address, say), ID a random entry of ids.
 */
export interface Workload {
  url: string;
  /** Several servers, each taking an equal share of the connections (the bench's own round-robin). */
  urls?: string[];
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  bodyTemplate?: string;
  pathTemplate?: string;
  ids?: string[];
  /** Called with the id of every 201 answer (the durability check). */
  onId?: (id: string) => void;
  /** The member of a 201 answer that names the attestation (default "id"; a mint answers "attestation_id"). */
  idField?: string;
  /** Send a fresh Idempotency-Key with every request, as a careful client does. */
  idempotencyKeys?: boolean;
  /**
   * Send each request as if from a client address of its own (X-Forwarded-For, believed by a
   * server started with HALLMARK_TRUSTED_PROXIES=1): many people, not one client's budget.
   */
  manyClients?: boolean;
  /** Send each request with one of these X-API-Keys, at random (a load spread over many accounts). */
  apiKeys?: string[];
  connections: number;
  seconds: number;
}
