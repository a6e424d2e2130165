import "server-only";
import { getConfig } from "../config";
import { getDb, type Tx } from "../db";
import { createAttestation } from "./attestations";
import { AppError } from "./errors";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "./idempotency";
import { newId } from "./ids";
import { ensurePersonalIssuer } from "./personal-issuer";
import { planOf, releaseUnit, reserveUnit } from "./quotas";

export const CATEGORIES = ["code", "research", "design", "media", "dataset", "ai-output", "writing", "digital-art", "other"] as const;
export const VISIBILITIES = ["public", "private"] as const;
/** The payload `type` of a protection's attestation. */
export const PROTECTION_PAYLOAD_TYPE = "hallmark.protection/v1";

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

export interface MintResult {
  status: number;
  body: MintView;
  replayed: boolean;
}

export const urlsOf = (protectionId: string) => {
  const base = getConfig().baseUrl;
  return { verify_url: `${base}/verify/${protectionId}`, share_url: `${base}/share/${protectionId}` };
};

/** The consumer behind a personal tenant (User.tenantId is unique). */
export async function consumerOf(tenantId: string) {
  const user = await getDb().read.user.findUnique({ where: { tenantId }, select: { id: true, plan: true, name: true } });
  if (!user) throw new AppError("insufficient_scope", "Only a consumer account can hold protections.");
  return user;
}

/**
 * Only cryptographic facts are signed (and so public in the log): the protection's id, the
 * content hash and the category. Title, description, file name, type, size and AI metadata stay
 * in the database, so a private protection reveals nothing but its hash.
 */
function signedPayload(protectionId: string, input: MintInput): Record<string, unknown> {
  return { type: PROTECTION_PAYLOAD_TYPE, protection_id: protectionId, content_hash: `sha256:${input.content_hash}`, category: input.category };
}

/**
 * POST /v1/consumer/mint. With an Idempotency-Key, the first answer is stored in the same
 * transaction as the protection and replayed for retries; a failed attempt releases its claim.
 */
export async function mintProtection(opts: { tenantId: string; input: MintInput; idempotency?: { key: string; requestHash: string } }): Promise<MintResult> {
  const { tenantId, input, idempotency } = opts;
  const user = await consumerOf(tenantId);
  if (!idempotency) return { status: 201, body: await mintOnce(tenantId, user, input), replayed: false };
  const claim = await claimIdempotencyKey(tenantId, idempotency.key, idempotency.requestHash);
  if (claim.kind === "replay") return { status: claim.status, body: claim.body as MintView, replayed: true };
  try {
    const body = await mintOnce(tenantId, user, input, (tx, view) => completeIdempotencyKey(tx, tenantId, idempotency.key, 201, view));
    return { status: 201, body, replayed: false };
  } catch (err) {
    await releaseIdempotencyKey(tenantId, idempotency.key, claim.claimedAt).catch(() => {});
    throw err;
  }
}

async function mintOnce(
  tenantId: string,
  user: { id: string; plan: string; name: string },
  input: MintInput,
  finish?: (tx: Tx, view: MintView) => Promise<void>,
): Promise<MintView> {
  // The quota unit is taken before anything is signed, and given back if nothing was logged.
  const month = await reserveUnit(user.id, planOf(user.plan));
  let logged = false;
  try {
    const issuerId = await ensurePersonalIssuer(tenantId, user.name);
    const protectionId = newId();
    const attestation = await createAttestation({ tenantId, issuerId, payload: signedPayload(protectionId, input) });
    logged = true;
    const view: MintView = {
      protection_id: protectionId,
      attestation_id: attestation.id,
      ...urlsOf(protectionId),
      status: "protected",
      content_hash: input.content_hash,
      protected_at: attestation.created_at,
    };
    await getDb().write(async (tx) => {
      await tx.protection.create({
        data: {
          id: protectionId,
          tenantId,
          userId: user.id,
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
          createdAt: new Date(attestation.created_at),
        },
      });
      if (finish) await finish(tx, view);
    });
    return view;
  } catch (err) {
    if (!logged) await releaseUnit(user.id, month).catch(() => {});
    throw err;
  }
}
