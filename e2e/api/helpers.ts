// Helpers for the REST suite. It runs against servers started by scripts/test.mjs, which
// passes their URLs in HALLMARK_TEST_BASE_URLS and the database in DATABASE_URL.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";

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
  /** Sent verbatim. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Which server instance (index into baseUrls). */
  instance?: number;
}

export async function api<T = any>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["x-api-key"] = opts.key;
  let body: string | Uint8Array | undefined = opts.raw;
  if (opts.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(`${baseUrls[opts.instance ?? 0]}${path}`, {
    method: opts.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = undefined;
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

/** A new organisation through the operator CLI, exactly as the README shows it. */
export function createOrg(name = `org-${randomUUID().slice(0, 8)}`): { tenantId: string; apiKey: string } {
  const out = execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/admin.ts", "create-org", "--name", name, "--json"], {
    encoding: "utf8",
    env: process.env,
  });
  const parsed = JSON.parse(out.trim().split("\n").pop()!);
  return { tenantId: parsed.tenant_id, apiKey: parsed.api_key };
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
