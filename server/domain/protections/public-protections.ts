import "server-only";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { iso, isUuid } from "../ids";
import { getProofBundle, type ProofOptions } from "../public-log";
import { fingerprintsOf, urlsOf } from "./protections";
import { getConfig } from "../../config";
import type { Category, Fingerprint, Visibility } from "./protections";
import { localOf } from "../../merkle/positions";
import { parseJson } from "@/lib/verify/json-parse";

/**
 * What a verify or share link shows of a protection: a public one to anyone; a private one only
 * to its owner (a session or key of its account), and to everyone else nothing at all, not even
 * that it exists (404, as for an unknown id): its log entry is sealed, and its page must not
 * open it.
 */
export interface PublicProtectionView {
  protection_id: string;
  attestation_id: string;
  content_hash: string;
  category: Category;
  visibility: Visibility;
  protected_at: string;
  log_index: number;
  issuer: { id: string; name: string };
  creator: { name: string; portfolio_url: string } | null;
  title: string | null;
  description: string | null;
  file_name: string | null;
  content_type: string | null;
  file_size: number | null;
  verification_count: number;
  verify_url: string;
  share_url: string;
  proof_bundle_url: string;
  /** The perceptual fingerprints minted with it (signed in its attestation). */
  fingerprints: Fingerprint[];
}

export const portfolioUrlOf = (userId: string) => `${getConfig().baseUrl}/portfolio/${userId}`;

/** The viewer: the tenant of the request's session or key, or null for an anonymous one. */
export type Viewer = { tenantId: string } | null | undefined;

/**
 * The row if `viewer` may see it: a public protection, or its own. A private protection is its
 * owner's alone: anyone else is told, word for word, what an unknown id is told, after the same
 * one read of its row (its creator and attestation are read only for a protection shown).
 */
function visibleTo<T extends { visibility: string; tenantId: string }>(row: T | null, viewer: Viewer): T {
  if (!row || (row.visibility !== "public" && row.tenantId !== viewer?.tenantId)) throw notFound("Protection");
  return row;
}

type ProtectionRow = NonNullable<Awaited<ReturnType<typeof findProtection>>>;

/** One primary-key read (Prisma batches those of one tick into one statement). */
const findProtection = (id: string) => getDb().read.protection.findUnique({ where: { id } });

async function toPublicView(p: ProtectionRow): Promise<PublicProtectionView> {
  const db = getDb().read;
  const [attestation, user] = await Promise.all([
    db.attestation.findUnique({ where: { id: p.attestationId }, select: { logIndex: true, issuerId: true, payload: true } }),
    db.user.findUnique({ where: { id: p.userId }, select: { id: true, name: true } }),
  ]);
  if (!user) throw new Error(`protection ${p.id} refers to a missing user`);
  if (!attestation) throw new Error(`protection ${p.id} refers to a missing attestation`);
  const issuer = await db.issuer.findUnique({ where: { id: attestation.issuerId }, select: { id: true, name: true } });
  if (!issuer) throw new Error(`attestation ${p.attestationId} refers to a missing issuer`);
  return {
    protection_id: p.id,
    attestation_id: p.attestationId,
    content_hash: p.contentHash,
    category: p.category as Category,
    visibility: p.visibility as Visibility,
    protected_at: iso(p.createdAt),
    log_index: localOf(attestation.logIndex),
    issuer,
    creator: { name: user.name, portfolio_url: portfolioUrlOf(user.id) },
    title: p.title,
    description: p.description,
    file_name: p.fileName,
    content_type: p.contentType,
    file_size: p.fileSize !== null ? Number(p.fileSize) : null,
    verification_count: p.verificationCount,
    ...urlsOf(p.id),
    proof_bundle_url: `${getConfig().baseUrl}/v1/protections/${p.id}/proof-bundle`,
    // As its attestation signs them, from the row read here anyway (no query of their own).
    fingerprints: fingerprintsOf(parseJson(attestation.payload) as Record<string, unknown>),
  };
}

/** GET /v1/protections/{id}: a protection as its verify and share pages show it (a private one to its owner only). */
export async function getPublicProtection({ id, viewer }: { id: string; viewer?: Viewer }): Promise<PublicProtectionView> {
  return toPublicView(visibleTo(isUuid(id) ? await findProtection(id) : null, viewer));
}

/** GET /v1/protections/{id}/proof-bundle: the bundle a visitor's browser verifies (a private one's to its owner only). */
export async function getPublicProofBundle({ id, viewer }: { id: string; viewer?: Viewer }, proof: ProofOptions) {
  const row = isUuid(id)
    ? await getDb().read.protection.findUnique({ where: { id }, select: { tenantId: true, attestationId: true, visibility: true } })
    : null;
  const shown = visibleTo(row, viewer);
  return getProofBundle({ tenantId: shown.tenantId, id: shown.attestationId }, proof);
}

/** GET /v1/portfolios/{user_id}: a creator's public protections, newest first. */
export async function getPortfolio({ userId, limit, offset }: { userId: string; limit: number; offset: number }) {
  const db = getDb().read;
  const user = isUuid(userId)
    ? await db.user.findUnique({
        where: { id: userId },
        select: { id: true, name: true, createdAt: true, tenant: { select: { kind: true } } },
      })
    : null;
  if (user?.tenant.kind !== "PERSONAL") throw notFound("Portfolio");
  const where = { userId: user.id, visibility: "public" };
  const [rows, total] = await Promise.all([
    db.protection.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: offset,
      take: limit,
    }),
    db.protection.count({ where }),
  ]);
  return {
    creator: { id: user.id, name: user.name, member_since: iso(user.createdAt), portfolio_url: portfolioUrlOf(user.id) },
    items: await Promise.all(rows.map(toPublicView)),
    total,
  };
}
