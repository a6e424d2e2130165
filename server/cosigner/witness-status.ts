import "server-only";
import { getConfig } from "../config";
import { getDb } from "../db";
import type { SkippedEntry } from "./log-list";
import { readLogList, refusedLogs } from "./witnessed-logs";

/** A followed log and the size this witness holds of it: GET /v1/witness's and the admin command's row. */
export interface FollowedLog {
  origin: string;
  vkey: string;
  qpd: number;
  cosigned_tree_size: number | null;
  cosigned_at: string | null;
}

/** Each listed log with the state this witness holds of it (none yet: nulls). */
export async function followedLogs(listed: Iterable<{ origin: string; vkey: string; qpd: number }>): Promise<FollowedLog[]> {
  const rows = new Map(
    (await getDb().read.witnessedLog.findMany({ select: { origin: true, treeSize: true, updatedAt: true } })).map((r) => [r.origin, r]),
  );
  return [...listed].map((l) => {
    const row = rows.get(l.origin);
    return {
      origin: l.origin,
      vkey: l.vkey,
      qpd: l.qpd,
      cosigned_tree_size: row ? Number(row.treeSize) : null,
      cosigned_at: row ? row.updatedAt.toISOString() : null,
    };
  });
}

/** This instance as a witness, as an operator reads it (npm run admin -- witnesses). */
export interface WitnessStatus {
  /** HALLMARK_WITNESS_LOGS. */
  source: string;
  /** Why the list could not be read now (a server keeps its last good copy), or null. */
  error: string | null;
  logs: FollowedLog[];
  /** Entries of the list that are not used, and why. */
  skipped: SkippedEntry[];
  /** Listed logs this witness refuses until an operator retires them (bindings.ts). */
  refused: { origin: string; reason: string }[];
}

/** Reads the list afresh (as a server's next refresh would) beside the state each log has; null when this instance witnesses no log. */
export async function witnessStatus(): Promise<WitnessStatus | null> {
  const source = getConfig().witnessLogs;
  if (!source) return null;
  let list: Awaited<ReturnType<typeof readLogList>>;
  try {
    list = await readLogList(source);
  } catch (err) {
    return { source, error: (err as Error).message, logs: [], skipped: [], refused: [] };
  }
  return {
    source,
    error: null,
    logs: await followedLogs(list.logs),
    skipped: list.skipped,
    refused: await refusedLogs(list.logs),
  };
}
