import "server-only";
import { Prisma } from "../../generated/sqlite/client";
import { getDb } from "../../db";
import { iso } from "../ids";
import { lookupItemsOf, type LookupItem } from "./lookup";
import { PDQ_WINDOW_COLUMNS, pdqProbes } from "@/lib/fingerprint/pdq-index";

/** A public protection whose picture is within the distance looked up. */
export interface SimilarItem extends LookupItem {
  /** Hamming distance between the PDQ hash looked up and the protection's (0–256). */
  distance: number;
}

export interface SimilarResult {
  pdq: string;
  max_distance: number;
  first_protected_at: string | null;
  /** Public protections within the distance: nearest first, then oldest. */
  items: SimilarItem[];
  total: number;
}

/**
 * At most this many stored fingerprints are compared for one lookup: beyond it (thousands of
 * protections of near-identical pictures), the nearest of those read are answered.
 */
export const MAX_CANDIDATES = 10_000;

/**
 * The fingerprints within `maxDistance` of `pdq`: public protections' only, since only those have
 * windows (protections.ts, matchColumns). Each window's probe is a range scan of that window's
 * index alone, which holds every candidate's hash bytes beside its window (and, in SQLite, its
 * rowid): the candidates' hashes come from the index pages the probes read, not from one table
 * row each. Each candidate's exact distance is measured in the database (SQLite: the
 * pdq_distance function server/db.ts registers; PostgreSQL: bit_count of the XOR), and only the
 * matches are joined back to their rows (SQLite by rowid; PostgreSQL by window 0 and the hash,
 * window 0's index).
 */
async function matches(pdq: string, maxDistance: number): Promise<{ protection_id: string; distance: number | bigint }[]> {
  const db = getDb();
  const probes = pdqProbes(pdq, maxDistance);
  if (db.kind === "postgres") {
    const scans = probes.map((values, k) => {
      const column = Prisma.raw(PDQ_WINDOW_COLUMNS[k]!);
      return Prisma.sql`SELECT hash_bytes FROM fingerprints WHERE ${column} = ANY(${values}::int[])`;
    });
    return db.read.$queryRaw`
      SELECT f.protection_id, m.distance FROM (
        SELECT hash_bytes, distance FROM (
          SELECT DISTINCT hash_bytes, bit_count(('x' || encode(hash_bytes, 'hex'))::bit(256) # ('x' || ${pdq})::bit(256)) AS distance
          FROM (${Prisma.join(scans, " UNION ALL ")} LIMIT ${MAX_CANDIDATES}) u) c
        WHERE distance <= ${maxDistance}) m
      JOIN fingerprints f ON f.w0 = get_byte(m.hash_bytes, 0) * 256 + get_byte(m.hash_bytes, 1) AND f.hash_bytes = m.hash_bytes
      WHERE f.alg = 'pdq'`;
  }
  const scans = probes.map((values, k) => {
    const column = Prisma.raw(PDQ_WINDOW_COLUMNS[k]!);
    return Prisma.sql`SELECT rowid AS r, hash_bytes FROM fingerprints WHERE ${column} IN (${Prisma.join(values)})`;
  });
  return db.read.$queryRaw`
    SELECT f.protection_id, m.distance FROM (
      SELECT r, distance FROM (
        SELECT r, pdq_distance(hash_bytes, ${Buffer.from(pdq, "hex")}) AS distance FROM (${Prisma.join(scans, " UNION ALL ")} LIMIT ${MAX_CANDIDATES}) u) c
      WHERE distance <= ${maxDistance}) m
    JOIN fingerprints f ON f.rowid = m.r
    WHERE f.alg = 'pdq'`;
}

/**
 * GET /v1/lookup?pdq=: public protections whose PDQ fingerprint is within `maxDistance` of
 * `pdq`. Candidates come from the multi-index (lib/fingerprint/pdq-index.ts: 16 indexed windows,
 * each probed at its value and, from distance 16, its 16 one-bit neighbours), then each
 * candidate's exact distance decides. Fingerprints of quality ≤ 49, and a private protection's,
 * have no windows and are never candidates: neither the answer, nor the work done for it, nor
 * the statistics the database plans it with hold a private protection's windows.
 */
export async function lookupSimilar(input: { pdq: string; maxDistance: number; limit: number; offset: number }): Promise<SimilarResult> {
  const { pdq, maxDistance, limit, offset } = input;
  const db = getDb().read;
  const near = new Map<string, number>();
  for (const m of await matches(pdq, maxDistance)) near.set(m.protection_id, Number(m.distance));
  const rows = near.size
    ? await db.protection.findMany({
        where: { id: { in: [...near.keys()] } },
        select: { id: true, attestationId: true, visibility: true, createdAt: true },
      })
    : [];
  const byNearness = (a: { id: string; createdAt: Date }, b: { id: string; createdAt: Date }) =>
    near.get(a.id)! - near.get(b.id)! || +a.createdAt - +b.createdAt || (a.id < b.id ? -1 : 1);
  // A protection made private between the two reads is left out, as if read a moment later.
  const publicRows = rows.filter((r) => r.visibility === "public").sort(byNearness);
  const page = publicRows.slice(offset, offset + limit);
  const items = (await lookupItemsOf(page)).map((item) => ({ ...item, distance: near.get(item.protection_id)! }));
  const first = publicRows.reduce<Date | null>((m, r) => (m === null || r.createdAt < m ? r.createdAt : m), null);
  return { pdq, max_distance: maxDistance, first_protected_at: first ? iso(first) : null, items, total: publicRows.length };
}
