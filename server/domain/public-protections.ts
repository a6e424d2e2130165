import "server-only";
import { getDb } from "../db";
import { notFound } from "./errors";
import { iso, isUuid } from "./ids";
import { getProofBundle } from "./proof-bundles";
import { urlsOf } from "./protections";
import { getConfig } from "../config";
import type { Category, Visibility } from "./protections";

/**
 * What anyone holding a verify or share link may see of a protection. The cryptographic facts
 * are public for every protection (they are in the log anyway). Title, description, file name,
 * type and size, and the creator's portfolio, only when the creator made it public: a private
 * protection reveals nothing its bundle does not already show.
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
}

export const portfolioUrlOf = (userId: string) => `${getConfig().baseUrl}/portfolio/${userId}`;

type ProtectionRow = NonNullable<Awaited<ReturnType<typeof findProtection>>>;

function findProtection(id: string) {
  return getDb().read.protection.findUnique({
    where: { id },
    include: { user: { select: { id: true, name: true } } },
  });
}

async function toPublicView(p: ProtectionRow): Promise<PublicProtectionView> {
  const db = getDb().read;
  const attestation = await db.attestation.findUnique({ where: { id: p.attestationId }, select: { logIndex: true, issuerId: true } });
  if (!attestation) throw new Error(`protection ${p.id} refers to a missing attestation`);
  const issuer = await db.issuer.findUnique({ where: { id: attestation.issuerId }, select: { id: true, name: true } });
  if (!issuer) throw new Error(`attestation ${p.attestationId} refers to a missing issuer`);
  const shown = p.visibility === "public";
  return {
    protection_id: p.id,
    attestation_id: p.attestationId,
    content_hash: p.contentHash,
    category: p.category as Category,
    visibility: p.visibility as Visibility,
    protected_at: iso(p.createdAt),
    log_index: Number(attestation.logIndex),
    issuer,
    creator: shown ? { name: p.user.name, portfolio_url: portfolioUrlOf(p.user.id) } : null,
    title: shown ? p.title : null,
    description: shown ? p.description : null,
    file_name: shown ? p.fileName : null,
    content_type: shown ? p.contentType : null,
    file_size: shown && p.fileSize !== null ? Number(p.fileSize) : null,
    verification_count: p.verificationCount,
    ...urlsOf(p.id),
    proof_bundle_url: `${getConfig().baseUrl}/v1/protections/${p.id}/proof-bundle`,
  };
}

/** GET /v1/protections/{id}: a protection as its verify and share pages show it. */
export async function getPublicProtection({ id }: { id: string }): Promise<PublicProtectionView> {
  const row = isUuid(id) ? await findProtection(id) : null;
  if (!row) throw notFound("Protection");
  return toPublicView(row);
}

/** GET /v1/protections/{id}/proof-bundle: the bundle a visitor's browser verifies. */
export async function getPublicProofBundle({ id }: { id: string }) {
  const row = isUuid(id)
    ? await getDb().read.protection.findUnique({ where: { id }, select: { tenantId: true, attestationId: true } })
    : null;
  if (!row) throw notFound("Protection");
  return getProofBundle({ tenantId: row.tenantId, id: row.attestationId });
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
      include: { user: { select: { id: true, name: true } } },
    }),
    db.protection.count({ where }),
  ]);
  return {
    creator: { id: user.id, name: user.name, member_since: iso(user.createdAt), portfolio_url: portfolioUrlOf(user.id) },
    items: await Promise.all(rows.map(toPublicView)),
    total,
  };
}
