import "server-only";
import { getDb } from "../../db";
import { getConfig } from "../../config";
import { iso } from "../ids";
import { portfolioUrlOf } from "./public-protections";
import { type Category, urlsOf } from "./protections";
import { localOf } from "../../merkle/positions";

/** One public protection of the bytes looked up. */
export interface LookupItem {
  protection_id: string;
  creator: { name: string; portfolio_url: string };
  title: string | null;
  category: Category;
  protected_at: string;
  log_index: number;
  verify_url: string;
  share_url: string;
  proof_bundle_url: string;
  tlog_proof_url: string;
}

export interface LookupResult {
  content_hash: string;
  /** The earliest protected_at of the public protections of these bytes; null when there is none. */
  first_protected_at: string | null;
  /** Public protections, in log order: the first claim the log proves comes first. */
  items: LookupItem[];
  total: number;
}

/**
 * GET /v1/lookup: who protected these bytes, publicly. A private protection is its owner's
 * secret, its existence included: the lookup answers of public protections only, and its
 * statements read only public rows (the (content_hash, visibility) index's public range), so
 * neither the answer nor the work done for it depends on whether a private one exists.
 * Public ones come in log order (`log_index`, which the log proves, rather than the signed
 * times of concurrent mints).
 */
export async function lookupContentHash(input: { contentHash: string; limit: number; offset: number }): Promise<LookupResult> {
  const db = getDb().read;
  const { contentHash, limit, offset } = input;
  const publicWhere = { contentHash, visibility: "public" };
  const [ordered, stats] = await Promise.all([
    db.$queryRaw<{ id: string; attestation_id: string }[]>`
      SELECT p.id, p.attestation_id FROM protections p JOIN attestations a ON a.id = p.attestation_id
      WHERE p.content_hash = ${contentHash} AND p.visibility = 'public'
      ORDER BY a.log_index LIMIT ${limit} OFFSET ${offset}`,
    db.protection.aggregate({ where: publicWhere, _count: { _all: true }, _min: { createdAt: true } }),
  ]);
  const items = await lookupItemsOf(ordered.map((r) => ({ id: r.id, attestationId: r.attestation_id })));
  const first = stats._min.createdAt;
  return { content_hash: contentHash, first_protected_at: first ? iso(first) : null, items, total: stats._count._all };
}

/**
 * The lookup items of these public protections, in the order given; one made private since it
 * was found is left out, as if it had been found a moment later.
 */
export async function lookupItemsOf(protections: { id: string; attestationId: string }[]): Promise<LookupItem[]> {
  if (!protections.length) return [];
  const db = getDb().read;
  const [rows, attestations] = await Promise.all([
    db.protection.findMany({
      where: { id: { in: protections.map((p) => p.id) }, visibility: "public" },
      include: { user: { select: { id: true, name: true } } },
    }),
    db.attestation.findMany({ where: { id: { in: protections.map((p) => p.attestationId) } }, select: { id: true, logIndex: true } }),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const logIndexOf = new Map(attestations.map((a) => [a.id, localOf(a.logIndex)]));
  const base = getConfig().baseUrl;
  return protections.flatMap(({ id }): LookupItem[] => {
    const p = byId.get(id);
    if (!p) return [];
    const item: LookupItem = {
      protection_id: p.id,
      creator: { name: p.user.name, portfolio_url: portfolioUrlOf(p.user.id) },
      title: p.title,
      category: p.category as Category,
      protected_at: iso(p.createdAt),
      log_index: logIndexOf.get(p.attestationId)!,
      ...urlsOf(p.id),
      proof_bundle_url: `${base}/v1/protections/${p.id}/proof-bundle`,
      tlog_proof_url: `${base}/v1/protections/${p.id}/tlog-proof`,
    };
    return [item];
  });
}
