import "server-only";
import { keepingLast } from "../keeping-last";
import { nodeKey } from "../merkle/merkle-tree";
import { MIN_LEVEL } from "../merkle/cached-levels";
import type { ApiKey, Attestation, Checkpoint, IdempotencyRecord, Issuer, NodeHashes, PublicSigningKey, SigningKey } from "./types";

// Raw rows of either database (snake_case; dates as ISO text with their zone; integers as
// bigint or number; bytes as Buffers) into the shapes Prisma returns, and dates into the text
// the Prisma SQLite adapter writes, so both read each other's rows. pg-store.ts parses
// PostgreSQL's values into that form.
type Row = Record<string, unknown>;

export const toSqliteDate = keepingLast((d) => d.toISOString().replace("Z", "+00:00"));
const date = (v: unknown): Date => new Date(String(v));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const bytes = (v: unknown): Uint8Array<ArrayBuffer> => new Uint8Array(v as Buffer) as Uint8Array<ArrayBuffer>;

export const apiKeyRow = (r: Row): ApiKey => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  userId: (r.user_id as string | null) ?? null,
  name: r.name as string,
  prefix: r.prefix as string,
  secretHash: r.secret_hash as string,
  scopes: r.scopes as string,
  status: r.status as string,
  dailyQuota: Number(r.daily_quota),
  rateLimitPerMinute: Number(r.rate_limit_per_minute),
  createdAt: date(r.created_at),
  revokedAt: dateOrNull(r.revoked_at),
});

export const attestationRow = (r: Row): Attestation => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  issuerId: r.issuer_id as string,
  kid: r.kid as string,
  payload: r.payload as string,
  signature: r.signature as string,
  status: r.status as string,
  logIndex: BigInt(r.log_index as bigint),
  createdAt: date(r.created_at),
  seal: (r.seal ?? null) as string | null,
});

export const idempotencyRow = (r: Row): IdempotencyRecord => ({
  tenantId: r.tenant_id as string,
  key: r.key as string,
  requestHash: r.request_hash as string,
  status: Number(r.status),
  response: r.response as string,
  createdAt: date(r.created_at),
});

export const issuerRow = (r: Row): Issuer => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  name: r.name as string,
  domain: r.domain as string,
  status: r.status as string,
  trustLevel: r.trust_level as string,
  personalFor: (r.personal_for as string | null) ?? null,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

export const signingKeyRow = (r: Row): SigningKey => ({ ...publicSigningKeyRow(r), privateKeyEnc: r.private_key_enc as string });

export const publicSigningKeyRow = (r: Row): PublicSigningKey => ({
  kid: r.kid as string,
  issuerId: r.issuer_id as string,
  algorithm: r.algorithm as string,
  publicKeyPem: r.public_key_pem as string,
  status: r.status as string,
  notBefore: date(r.not_before),
  expiresAt: date(r.expires_at),
  createdAt: date(r.created_at),
});

export const checkpointRow = (r: Row): Checkpoint => ({
  treeSize: BigInt(r.tree_size as bigint),
  rootHash: bytes(r.root_hash),
  note: r.note as string,
  signature: r.signature as string,
  timestamp: date(r.timestamp),
});

/** The levels below the node cache's: a bundle statement reads the leaf's sibling at each (column sibling<k>). */
export const SIBLING_LEVELS = Array.from({ length: MIN_LEVEL }, (_, k) => k);

/**
 * The leaf's stored siblings from a bundle row's sibling<k> columns: sibling k of leaf i is node
 * (k, floor(i / 2^k) XOR 1), computed without >> and ^ so it stays exact beyond 2^32. An
 * absent one (NULL: not stored yet) is left out.
 */
export function siblingNodes(logIndex: bigint, r: Row): NodeHashes {
  const nodes: NodeHashes = new Map();
  const index = Number(logIndex);
  for (const k of SIBLING_LEVELS) {
    const hash = r[`sibling${k}`] as Uint8Array | null;
    const at = Math.floor(index / 2 ** k);
    if (hash) nodes.set(nodeKey(k, at % 2 === 0 ? at + 1 : at - 1), new Uint8Array(hash));
  }
  return nodes;
}
