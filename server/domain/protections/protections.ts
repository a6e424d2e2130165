import "server-only";
import { LRUCache } from "lru-cache";
import { processWide } from "../../process-wide";
import { getConfig } from "../../config";
import { getDb } from "../../db";
import type { FingerprintInsert, ProtectionInsert } from "../../store/types";
import { pdqMatchable, pdqWindows } from "@/lib/fingerprint/pdq-index";
import { createAttestation } from "../attestations";
import { AppError } from "../../errors";
import { checkIdempotencyKey, holdIdempotencyKey, IdempotentReplay, storeIdempotentAnswer } from "../idempotency";
import { iso, newId } from "../ids";
import { ensurePersonalIssuer } from "../attestations";
import { planOf } from "../plans";
import { monthOf, MINT_QUOTAS, quotaExceeded } from "../plans";
import { PROTECTION_PAYLOAD_TYPE } from "../payload-types";

export const CATEGORIES = ["code", "research", "design", "media", "dataset", "ai-output", "writing", "digital-art", "other"] as const;
export const VISIBILITIES = ["public", "private"] as const;
export type Category = (typeof CATEGORIES)[number];
export type Visibility = (typeof VISIBILITIES)[number];

export interface MintInput {
  /** 64 lowercase hex characters. */
  content_hash: string;
  title?: string | null;
  description?: string | null;
  content_type?: string | null;
  file_name?: string | null;
  file_size?: number | null;
  category: (typeof CATEGORIES)[number];
  ai_metadata?: Record<string, unknown> | null;
  visibility: (typeof VISIBILITIES)[number];
  /** Perceptual fingerprints of the file, computed by the client; at most one per algorithm. */
  fingerprints?: Fingerprint[] | null;
}

/** A perceptual fingerprint as sent and signed: PDQ's hash (64 lowercase hex digits) and quality (0–100). */
export interface Fingerprint {
  alg: (typeof FINGERPRINT_ALGS)[number];
  hash: string;
  quality: number;
}
export const FINGERPRINT_ALGS = ["pdq"] as const;

/** The fingerprints a protection's signed payload holds (signedPayload wrote them). */
export function fingerprintsOf(payload: Record<string, unknown>): Fingerprint[] {
  const list = payload.fingerprints;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (f): f is Fingerprint =>
      typeof f === "object" &&
      f !== null &&
      (FINGERPRINT_ALGS as readonly unknown[]).includes(f.alg) &&
      typeof f.hash === "string" &&
      typeof f.quality === "number",
  );
}

export interface MintView {
  protection_id: string;
  attestation_id: string;
  verify_url: string;
  share_url: string;
  status: "protected";
  content_hash: string;
  protected_at: string;
}

/** A minted protection, and whether it is the first answer replayed for the same Idempotency-Key. */
export interface MintResult {
  protection: MintView;
  replayed: boolean;
}

export const urlsOf = (protectionId: string) => {
  const base = getConfig().baseUrl;
  return { verify_url: `${base}/verify/${protectionId}`, share_url: `${base}/share/${protectionId}` };
};

const CONSUMER_TTL_MS = 5_000;
const consumers = processWide(
  "consumer-cache",
  () => new LRUCache<string, { id: string; plan: string; name: string }>({ max: 10_000, ttl: CONSUMER_TTL_MS }),
);

/** Consumers kept, for /metrics. */
export const consumerCacheEntries = () => consumers.size;

/**
 * The consumer behind a personal tenant (User.tenantId is unique), from a few-seconds cache on
 * the mint's hot path (a user's id never changes; a plan change holds within CONSUMER_TTL_MS).
 */
export async function consumerOf(tenantId: string) {
  const hit = consumers.get(tenantId);
  if (hit) return hit;
  const user = await getDb().read.user.findUnique({ where: { tenantId }, select: { id: true, plan: true, name: true } });
  if (!user) throw new AppError("insufficient_scope", "Only a consumer account can hold protections.");
  consumers.set(tenantId, user);
  return user;
}

/**
 * Only facts about the bytes are signed: the protection's id, the content hash, the category
 * and the perceptual fingerprints given (so a proof covers what similar-image lookup matched).
 * Title, description, file name, type, size and AI metadata stay in the database. A private
 * protection's entry is sealed, so none of this is readable in the public log until its owner
 * makes it public.
 */
function signedPayload(protectionId: string, input: MintInput): Record<string, unknown> {
  return {
    type: PROTECTION_PAYLOAD_TYPE,
    protection_id: protectionId,
    content_hash: `sha256:${input.content_hash}`,
    category: input.category,
    ...(input.fingerprints?.length ? { fingerprints: input.fingerprints.map(({ alg, hash, quality }) => ({ alg, hash, quality })) } : {}),
  };
}

/**
 * POST /v1/consumer/mint: one log entry whose own rows (the protection, the month's quota unit
 * and, with an Idempotency-Key, the answer to replay) commit in the transaction that logs its
 * attestation, or none of them does: a crash at any moment leaves either the whole mint or
 * nothing. The quota and the key are checked only inside that transaction (with the log locked,
 * so exactly on every instance; a retry signs an entry that its admit then turns into the first
 * answer, which costs less than a read before every mint); a mint refused there fails alone,
 * never its batch. A retry with
 * the key gets the first answer if the mint committed, and mints once if it did not; a request
 * that arrives while the first is still running waits for it and gets its answer.
 */
export async function mintProtection(opts: {
  tenantId: string;
  input: MintInput;
  idempotency?: { key: string; requestHash: string };
}): Promise<MintResult> {
  const { tenantId, input } = opts;
  const user = await consumerOf(tenantId);
  const idempotency = opts.idempotency && { tenantId, ...opts.idempotency };
  try {
    const issuerId = await ensurePersonalIssuer(tenantId);
    const protectionId = newId();
    const plan = planOf(user.plan);
    let view!: MintView;
    await createAttestation({
      tenantId,
      issuerId,
      payload: signedPayload(protectionId, input),
      // A private protection is logged sealed: nothing in the public log is readable or linkable.
      sealed: input.visibility === "private",
      effects: (row) => {
        view = {
          protection_id: protectionId,
          attestation_id: row.id,
          ...urlsOf(protectionId),
          status: "protected",
          content_hash: input.content_hash,
          protected_at: iso(row.createdAt),
        };
        return {
          admit: async (w, batch) => {
            if (idempotency) await checkIdempotencyKey(w, batch, idempotency);
            if (!(await w.takeUsageUnit(user.id, monthOf(row.createdAt), MINT_QUOTAS[plan]))) throw quotaExceeded(plan, row.createdAt);
            if (idempotency) holdIdempotencyKey(batch, idempotency, 201, view);
          },
          write: async (w) => {
            await w.insertProtection(protectionRow(protectionId, tenantId, user.id, row, input));
            if (input.fingerprints?.length)
              await w.insertFingerprints(fingerprintRows(protectionId, row.createdAt, input.fingerprints, input.visibility === "public"));
            if (idempotency) await storeIdempotentAnswer(w, idempotency, 201, view, row.createdAt);
          },
          idempotencyKey: idempotency && { tenantId: idempotency.tenantId, key: idempotency.key },
          usageKey: { userId: user.id, month: monthOf(row.createdAt) },
        };
      },
    });
    return { protection: view, replayed: false };
  } catch (err) {
    if (err instanceof IdempotentReplay) return { protection: err.body as MintView, replayed: true };
    throw err;
  }
}

function protectionRow(
  id: string,
  tenantId: string,
  userId: string,
  attestation: { id: string; createdAt: Date },
  input: MintInput,
): ProtectionInsert {
  return {
    id,
    tenantId,
    userId,
    attestationId: attestation.id,
    contentHash: input.content_hash,
    title: input.title ?? null,
    description: input.description ?? null,
    contentType: input.content_type ?? null,
    fileName: input.file_name ?? null,
    fileSize: input.file_size === undefined || input.file_size === null ? null : BigInt(input.file_size),
    category: input.category,
    visibility: input.visibility,
    aiMetadata: input.ai_metadata ? JSON.stringify(input.ai_metadata) : null,
    createdAt: attestation.createdAt,
  };
}

function fingerprintRows(protectionId: string, createdAt: Date, fingerprints: Fingerprint[], isPublic: boolean): FingerprintInsert[] {
  return fingerprints.map((f) => ({ protectionId, alg: f.alg, hash: f.hash, quality: f.quality, createdAt, ...matchColumns(f, isPublic) }));
}

/**
 * What similar-image lookup probes of a fingerprint: its windows and hash bytes, only while its
 * protection is public and its quality is enough to match (prisma/schema.prisma, Fingerprint);
 * else none, so a lookup never reads it and no index range or planner statistic holds it.
 */
export function matchColumns(f: { alg: string; hash: string; quality: number }, isPublic: boolean) {
  const matched = isPublic && f.alg === "pdq" && pdqMatchable(f.quality);
  return { windows: matched ? pdqWindows(f.hash) : null, hashBytes: matched ? Buffer.from(f.hash, "hex") : null };
}
