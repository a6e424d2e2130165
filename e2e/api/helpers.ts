// Helpers for the REST suite. It runs against servers started by scripts/test.mjs, which
// passes their URLs in HALLMARK_TEST_BASE_URLS and the database in DATABASE_URL.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { assertDescribed } from "./openapi-conformance";
import { noteNotYetWitnessedRetry, refuseSideLaneAppend } from "./placement-checks";
import { seedOrg } from "../accounts";

export const baseUrls = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",").filter(Boolean);
if (baseUrls.length === 0) throw new Error("Run the REST suite through `npm test` (HALLMARK_TEST_BASE_URLS is not set).");
export const baseUrl = baseUrls[0]!;
export const dbKind = process.env.HALLMARK_TEST_DB ?? "sqlite";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface RequestOptions {
  method?: string;
  key?: string;
  /** Serialised as JSON with content-type application/json. */
  json?: unknown;
  /** Sent verbatim: a string or bytes with a Content-Length, a stream chunked. */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** Which server instance (index into baseUrls). */
  instance?: number;
}

/**
 * A request to the suite's server, its answer checked against the OpenAPI document. A GET answered
 * 503 not_yet_witnessed (a proof whose checkpoint the witnesses have not cosigned within the
 * server's wait, as on two busy cores) is asked again after its Retry-After, as a client would,
 * a few times; each retry is counted and printed by scripts/test.mjs, and fails the test in a file
 * declared `witnessing` (placement-checks.ts). The tests of that answer itself read it through
 * requests of their own. A side lane's file may send no append (placement-checks.ts).
 */
export async function api<T = any>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = opts.method ?? (opts.json !== undefined || opts.raw !== undefined ? "POST" : "GET");
  refuseSideLaneAppend(method, path);
  for (let attempt = 1; ; attempt++) {
    const answer = await apiOnce<T>(path, opts);
    const notWitnessed = answer.status === 503 && (answer.body as { code?: string } | undefined)?.code === "not_yet_witnessed";
    if (!notWitnessed || method !== "GET" || opts.json !== undefined || opts.raw !== undefined || attempt === 5) return answer;
    noteNotYetWitnessedRetry(method, path);
    await new Promise((r) => setTimeout(r, 1000 * Number(answer.headers.get("retry-after") ?? 2)));
  }
}

async function apiOnce<T>(path: string, opts: RequestOptions): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["x-api-key"] = opts.key;
  // Bytes go as a Blob: fetch can detach a typed array's buffer while sending it, and then
  // fails the request on the client ("detached ArrayBuffer"), which a test would misread.
  let body: BodyInit | undefined =
    opts.raw instanceof Uint8Array ? new Blob([opts.raw as Uint8Array<ArrayBuffer>]) : (opts.raw as BodyInit | undefined);
  if (opts.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(opts.json);
  }
  const method = opts.method ?? (body === undefined ? "GET" : "POST");
  const res = await fetch(`${baseUrls[opts.instance ?? 0]}${path}`, {
    method,
    headers,
    body: body as BodyInit | undefined,
    // A stream body is sent with Transfer-Encoding: chunked (undici requires half duplex).
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const text = await res.text();
  // Every answer is one the OpenAPI document describes (e2e/api/openapi-conformance.ts).
  await assertDescribed(baseUrls[opts.instance ?? 0]!, method, path, res.status, res.headers, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

/** Asserts an RFC 9457 problem with the given status and code. */
export function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
}

/** Logs in over REST (from a client address of its own) and returns the session token. */
/**
 * Two problem answers that must not be told apart (another tenant's resource and an unknown
 * one): the same body but for the request id each answer has of its own.
 */
export function expectSameProblem(res: ApiResponse, other: ApiResponse): void {
  const { request_id: a, ...body } = res.body ?? {};
  const { request_id: b, ...otherBody } = other.body ?? {};
  expect(body).toEqual(otherBody);
  expect(typeof a === "string" && typeof b === "string" && a !== b).toBe(true);
}

export async function sessionToken(email: string, password: string, instance = 0): Promise<string> {
  const client = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
  const res = await api("/v1/consumer/login", { json: { email, password }, headers: { "x-forwarded-for": client }, instance });
  expect(res.status, res.text).toBe(200);
  return res.body.session_token as string;
}

/** A fresh organisation with one issuer: the usual starting point of a test file. */
export async function orgWithIssuer(): Promise<{ key: string; issuerId: string }> {
  const key = (await seedOrg()).apiKey;
  return { key, issuerId: (await createIssuer(key)).id };
}

export async function createIssuer(key: string, domain = `news-${randomUUID().slice(0, 8)}.example.org`) {
  const res = await api("/v1/issuers", { key, json: { name: "Test Issuer", domain } });
  expect(res.status).toBe(201);
  return res.body as { id: string; keys: { kid: string; public_key: string }[] };
}

export async function attest(key: string, issuerId: string, payload: Record<string, unknown> = { content_hash: randomUUID() }) {
  const res = await api("/v1/attestations", { key, json: { issuer_id: issuerId, payload } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; log_index: number; kid: string; signature: string; created_at: string };
}

export async function logKey(): Promise<string> {
  const res = await api("/v1/log");
  expect(res.status).toBe(200);
  return res.body.public_key as string;
}

/** The scopes an organisation key can hold (lib/scopes.ts, shared so the two cannot drift). */
export { ORGANIZATION_SCOPES as ALL_SCOPES } from "@/lib/scopes";

/** A new API key made with `adminKey`; returns its list view plus the secret. */
export async function createKey(
  adminKey: string,
  scopes: readonly string[],
  extra: { name?: string; daily_quota?: number; rate_limit_per_minute?: number; instance?: number } = {},
) {
  const { instance, ...fields } = extra;
  const res = await api("/v1/api-keys", { key: adminKey, instance, json: { name: "test key", ...fields, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; key: string; prefix: string; scopes: string[]; status: string };
}

/** One log of the chain GET /v1/log lists (its `shards`). */
export interface ShardView {
  origin: string;
  verifier_key: string;
  state: string;
  tree_size: number;
  monitoring_prefix: string;
  successor_url: string | null;
}

export async function logInfo(instance = 0) {
  const res = await api("/v1/log", { instance });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    origin: string;
    tree_size: number;
    root_hash: string;
    public_key: string;
    key_id: string;
    verifier_key: string;
    ml_dsa_44_verifier_key: string;
    shards: ShardView[];
  };
}

export async function proofBundle(key: string, id: string, instance = 0) {
  const res = await api(`/v1/attestations/${id}/proof-bundle`, { key, instance });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A body streamed in `chunk`-byte pieces, so it goes out chunked with no Content-Length. */
export function streamOf(text: string, chunk = 16 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

/** A random SHA-256 digest in lowercase hex, as a client would compute for a file. */
export const randomContentHash = (): string => randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "");

/** POST /v1/consumer/mint; `idempotencyKey` is sent as the Idempotency-Key header. */
export function mint(key: string, body: unknown, idempotencyKey?: string, instance = 0) {
  return api("/v1/consumer/mint", { key, json: body, instance, headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {} });
}

/** One request to each organisation endpoint (issuers and attestations), made with key `k`. */
export function organisationRequests(k: string, issuerId: string, attestationId = randomUUID()) {
  return [
    api("/v1/issuers", { key: k }),
    api(`/v1/issuers/${issuerId}`, { key: k }),
    api("/v1/issuers", { key: k, json: { name: "x", domain: "x.example.org" } }),
    api(`/v1/issuers/${issuerId}/keys`, { key: k, method: "POST" }),
    api("/v1/attestations", { key: k, json: { issuer_id: issuerId, payload: { a: 1 } } }),
    api(`/v1/attestations/${attestationId}`, { key: k }),
    api(`/v1/attestations/${attestationId}/proof-bundle`, { key: k }),
  ];
}

/** Polls until `ok` holds for the value read, and fails after `ms` with the last value in the message. */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  expect(ok(v), JSON.stringify(v, null, 1).slice(0, 2000)).toBe(true);
  return v;
}
