import "server-only";
import { getDb } from "../db";

/** What a retired record held: the operator keeps it (it may be evidence). */
export interface RetiredRecord {
  origin: string;
  tree_size: number;
  log_vkey: string | null;
  witness_vkeys: string | null;
  /** The newest checkpoint this witness cosigned for the origin, with its cosignatures. */
  note: string;
}

/**
 * Forgets this witness's record of `origin` (npm run admin -- witness-retire), on purpose: the
 * only way an origin refused for a changed key (bindings.ts) is witnessed again, then from size 0
 * under the key the list names. Answers what the record held, or null when there was none.
 */
export async function retireWitnessedLog(origin: string): Promise<RetiredRecord | null> {
  return getDb().write(async (tx) => {
    const row = await tx.witnessedLog.findUnique({ where: { origin } });
    if (!row) return null;
    await tx.witnessedLog.delete({ where: { origin } });
    return { origin, tree_size: Number(row.treeSize), log_vkey: row.logVkey, witness_vkeys: row.witnessVkeys, note: row.note };
  });
}
