import "server-only";
import { NO_PDQ_WINDOWS, PDQ_WINDOW_COLUMNS, PDQ_WINDOWS } from "@/lib/fingerprint/pdq-index";
import type { StoredNode } from "../merkle/merkle-tree";
import { ATTESTATION_COLS, columns, iso } from "./pg-statements";
import type { AttestationInsert, Checkpoint, FingerprintInsert, IdempotencyRecord, ProtectionInsert } from "./types";

/**
 * Step 3 of an append (pg-store.ts): every write of a batch in one statement. Each CTE inserts its unnest()ed arrays
 * (empty arrays insert nothing); the head moves only when a size is given. Foreign keys and
 * unique constraints are checked as for separate statements: any failure fails it all.
 * Fingerprints' windows: $46 holds them flat, PDQ_WINDOWS a row, NULL where not matched.
 */
export const WRITE_SQL = `WITH
a AS (INSERT INTO attestations (${columns(ATTESTATION_COLS)})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::timestamp(3)[], $40::text[])),
n AS (INSERT INTO log_nodes (level, "index", hash) SELECT * FROM unnest($10::int[], $11::bigint[], $12::bytea[])),
c AS (INSERT INTO checkpoints (tree_size, root_hash, note, signature, "timestamp")
  SELECT * FROM unnest($13::bigint[], $14::bytea[], $15::text[], $16::text[], $17::timestamp(3)[])),
p AS (INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type,
    file_name, file_size, category, visibility, ai_metadata, verification_count, created_at)
  SELECT id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type, file_name, file_size, category,
    visibility, ai_metadata, 0, created_at
  FROM unnest($18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[],
    $27::bigint[], $28::text[], $29::text[], $30::text[], $31::timestamp(3)[])
    AS t(id, tenant_id, user_id, attestation_id, content_hash, title, description, content_type, file_name, file_size, category,
      visibility, ai_metadata, created_at)),
f AS (INSERT INTO fingerprints (protection_id, alg, hash, quality, created_at, ${PDQ_WINDOW_COLUMNS.join(", ")}, hash_bytes)
  SELECT t.protection_id, t.alg, t.hash, t.quality, t.created_at, ${PDQ_WINDOW_COLUMNS.map((_, k) => `($46::int[])[(t.ord - 1) * ${PDQ_WINDOWS} + ${k + 1}]`).join(", ")}, t.hash_bytes
  FROM unnest($41::text[], $42::text[], $43::text[], $44::int[], $45::timestamp(3)[], $47::bytea[]) WITH ORDINALITY
    AS t(protection_id, alg, hash, quality, created_at, hash_bytes, ord)),
i AS (INSERT INTO idempotency_records (tenant_id, key, request_hash, status, response, created_at)
  SELECT * FROM unnest($32::text[], $33::text[], $34::text[], $35::int[], $36::text[], $37::timestamp(3)[])
  ON CONFLICT (tenant_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
    response = excluded.response, created_at = excluded.created_at),
u AS (INSERT INTO usage_counters (user_id, month, "count") SELECT * FROM unnest($48::text[], $49::text[], $50::int[])
  ON CONFLICT (user_id, month) DO UPDATE SET "count" = usage_counters."count" + excluded."count")
UPDATE log SET tree_size = $38::bigint, root_hash = $39::bytea WHERE id = 1 AND $38::bigint IS NOT NULL`;

/** What a batch writes, gathered until step 3. */
export class Pending {
  attestations: AttestationInsert[] = [];
  nodes: StoredNode[] = [];
  checkpoints: Checkpoint[] = [];
  protections: ProtectionInsert[] = [];
  fingerprints: FingerprintInsert[] = [];
  /** Keyed by (tenant, key): a later put of the same key replaces the earlier, as an upsert would. */
  records = new Map<string, IdempotencyRecord>();
  /** Units taken from usage counters read ahead, by (user, month): added to each counter, or a new one started at it. */
  usage = new Map<string, { userId: string; month: string; taken: number }>();
  head: { size: number; root: Uint8Array } | null = null;

  get empty(): boolean {
    return (
      !this.attestations.length &&
      !this.nodes.length &&
      !this.checkpoints.length &&
      !this.protections.length &&
      !this.fingerprints.length &&
      !this.records.size &&
      !this.usage.size &&
      !this.head
    );
  }

  values(): unknown[] {
    const a = this.attestations;
    const p = this.protections;
    const r = [...this.records.values()];
    const cp = this.checkpoints;
    const f = this.fingerprints;
    const u = [...this.usage.values()];
    return [
      a.map((x) => x.id),
      a.map((x) => x.tenantId),
      a.map((x) => x.issuerId),
      a.map((x) => x.kid),
      a.map((x) => x.payload),
      a.map((x) => x.signature),
      a.map((x) => x.status),
      a.map((x) => String(x.logIndex)),
      a.map((x) => iso(x.createdAt)),
      this.nodes.map((n) => n.level),
      this.nodes.map((n) => String(n.index)),
      this.nodes.map((n) => Buffer.from(n.hash)),
      cp.map((x) => String(x.treeSize)),
      cp.map((x) => Buffer.from(x.rootHash)),
      cp.map((x) => x.note),
      cp.map((x) => x.signature),
      cp.map((x) => iso(x.timestamp)),
      p.map((x) => x.id),
      p.map((x) => x.tenantId),
      p.map((x) => x.userId),
      p.map((x) => x.attestationId),
      p.map((x) => x.contentHash),
      p.map((x) => x.title),
      p.map((x) => x.description),
      p.map((x) => x.contentType),
      p.map((x) => x.fileName),
      p.map((x) => (x.fileSize === null ? null : String(x.fileSize))),
      p.map((x) => x.category),
      p.map((x) => x.visibility),
      p.map((x) => x.aiMetadata),
      p.map((x) => iso(x.createdAt)),
      r.map((x) => x.tenantId),
      r.map((x) => x.key),
      r.map((x) => x.requestHash),
      r.map((x) => x.status),
      r.map((x) => x.response),
      r.map((x) => iso(x.createdAt)),
      this.head ? String(this.head.size) : null,
      this.head ? Buffer.from(this.head.root) : null,
      a.map((x) => x.seal ?? null),
      f.map((x) => x.protectionId),
      f.map((x) => x.alg),
      f.map((x) => x.hash),
      f.map((x) => x.quality),
      f.map((x) => iso(x.createdAt)),
      f.flatMap((x) => x.windows ?? NO_PDQ_WINDOWS),
      f.map((x) => x.hashBytes),
      u.map((x) => x.userId),
      u.map((x) => x.month),
      u.map((x) => x.taken),
    ];
  }
}
