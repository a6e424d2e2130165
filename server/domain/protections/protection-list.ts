import "server-only";
import { getDb } from "../../db";
import { checkPasswordForWhatLasts } from "../accounts";
import { jsonDepthExcess } from "../../json-depth.mjs";
import { toAttestationView, type AttestationView } from "../attestations";
import { AppError, notFound } from "../../errors";
import { iso, isUuid } from "../ids";
import { getProofBundle, type ProofOptions } from "../public-log";
import { matchColumns, urlsOf } from "./protections";
import { pdqWindowFields } from "@/lib/fingerprint/pdq-index";
import { fingerprintsOf, type Category, type Fingerprint, type Visibility } from "./protections";
import { parseJson } from "@/lib/verify/json-parse";

export type ProtectionItem = AttestationView & {
  protection_id: string;
  content_hash: string;
  title: string | null;
  description: string | null;
  file_name: string | null;
  content_type: string | null;
  file_size: number | null;
  category: Category;
  visibility: Visibility;
  ai_metadata: Record<string, unknown> | null;
  verification_count: number;
  verify_url: string;
  share_url: string;
  protected_at: string;
  /** The perceptual fingerprints minted with it, as its attestation signs them. */
  fingerprints: Fingerprint[];
};

type ProtectionRow = Awaited<ReturnType<ReturnType<typeof getDb>["read"]["protection"]["findFirstOrThrow"]>>;

function toProtectionItem(p: ProtectionRow, a: AttestationView): ProtectionItem {
  return {
    ...a,
    protection_id: p.id,
    content_hash: p.contentHash,
    title: p.title,
    description: p.description,
    file_name: p.fileName,
    content_type: p.contentType,
    file_size: p.fileSize === null ? null : Number(p.fileSize),
    category: p.category as Category,
    visibility: p.visibility as Visibility,
    ai_metadata: p.aiMetadata ? (parseJson(p.aiMetadata) as Record<string, unknown>) : null,
    verification_count: p.verificationCount,
    ...urlsOf(p.id),
    protected_at: iso(p.createdAt),
    fingerprints: fingerprintsOf(a.payload),
  };
}

const encodeCursor = (createdAt: Date, id: string) => Buffer.from(JSON.stringify([createdAt.getTime(), id])).toString("base64url");

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    // A cursor this API wrote nests one level: a deeper one is not, and no parser reads it.
    if (jsonDepthExcess(text, 1)) throw new Error("not a cursor");
    const [t, id] = JSON.parse(text) as unknown[];
    // A time outside what a Date can hold (|t| > 8.64e15 ms) is not one this API wrote either.
    const createdAt = typeof t === "number" && Number.isSafeInteger(t) ? new Date(t) : null;
    if (createdAt && !Number.isNaN(createdAt.getTime()) && typeof id === "string" && id.length <= 64) return { createdAt, id };
  } catch {}
  throw new AppError("invalid_parameter", "A query parameter is not valid; see errors.", [
    { pointer: "/cursor", detail: "is not a cursor this API returned" },
  ]);
}

export interface ProtectionFilter {
  category?: string;
  visibility?: string;
}

/**
 * GET /v1/consumer/protections: the caller's protections, newest first, `limit` per page,
 * optionally only one category and/or visibility (`total` counts what the filter matches).
 */
export async function listProtections(opts: { tenantId: string; limit: number; cursor?: string; filter?: ProtectionFilter }) {
  const db = getDb().read;
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const matching = {
    tenantId: opts.tenantId,
    ...(opts.filter?.category ? { category: opts.filter.category } : {}),
    ...(opts.filter?.visibility ? { visibility: opts.filter.visibility } : {}),
  };
  const where = after
    ? { ...matching, OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
    : matching;
  const [rows, total] = await Promise.all([
    db.protection.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: opts.limit + 1 }),
    db.protection.count({ where: matching }),
  ]);
  const page = rows.slice(0, opts.limit);
  const attestations = await db.attestation.findMany({ where: { id: { in: page.map((p) => p.attestationId) }, tenantId: opts.tenantId } });
  const byId = new Map(attestations.map((a) => [a.id, toAttestationView(a)]));
  const items: ProtectionItem[] = page.flatMap((p) => {
    const a = byId.get(p.attestationId);
    return a ? [toProtectionItem(p, a)] : [];
  });
  const last = page[page.length - 1];
  return { items, total, next_cursor: rows.length > opts.limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** The proof bundle of one of the caller's protections (its attestation), by protection id. */
export async function getProtectionProofBundle({ tenantId, id }: { tenantId: string; id: string }, proof: ProofOptions) {
  const row = isUuid(id) ? await getDb().read.protection.findFirst({ where: { id, tenantId }, select: { attestationId: true } }) : null;
  if (!row) throw notFound("Protection");
  return getProofBundle({ tenantId, id: row.attestationId }, proof);
}

/**
 * PATCH /v1/consumer/protections/{id}: makes one of the caller's protections public or private.
 * Public shows the work on its pages and publishes the opening of its sealed log entry with its
 * proof; private hides them from then on (what was public may have been copied, and an entry
 * logged in the open while it was public stays readable in the log: `sealed` says which).
 */
export async function setProtectionVisibility({
  tenantId,
  id,
  visibility,
  session,
}: {
  tenantId: string;
  id: string;
  visibility: Visibility;
  /** The caller, when a session: publishing then takes the account's current password. */
  session?: { userId: string; password?: string };
}) {
  if (!isUuid(id)) throw notFound("Protection");
  const db = getDb();
  const current = await db.read.protection.findFirst({ where: { id, tenantId }, select: { visibility: true } });
  if (!current) throw notFound("Protection");
  // The opening of a sealed entry, once published, is published for good.
  if (session && current.visibility === "private" && visibility === "public") {
    await checkPasswordForWhatLasts(session.userId, session.password, "making a private protection public");
  }
  const row = await db.write(async (tx) => {
    // Only from the visibility read above: a request checked for one change cannot make another.
    const changed = await tx.protection.updateMany({ where: { id, tenantId, visibility: current.visibility }, data: { visibility } });
    if (changed.count === 0) {
      const present = await tx.protection.findFirst({ where: { id, tenantId } });
      if (!present) throw notFound("Protection");
      // Already what was asked (a double click): done, nothing more to write.
      if (present.visibility === visibility) return present;
      throw new AppError("conflict", "The protection's visibility changed meanwhile: read it again, then ask again.");
    }
    // Lookups find its fingerprints from now on, or no longer (matchColumns, similar-lookup.ts).
    for (const f of await tx.fingerprint.findMany({ where: { protectionId: id } })) {
      const { windows, hashBytes } = matchColumns(f, visibility === "public");
      await tx.fingerprint.update({
        where: { protectionId_alg: { protectionId: id, alg: f.alg } },
        data: { ...pdqWindowFields(windows), hashBytes },
      });
    }
    return tx.protection.findUniqueOrThrow({ where: { id } });
  });
  const attestation = await db.read.attestation.findFirst({ where: { id: row.attestationId, tenantId } });
  if (!attestation) throw new Error(`protection ${id} refers to a missing attestation`);
  return toProtectionItem(row, toAttestationView(attestation));
}
