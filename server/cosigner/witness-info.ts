import "server-only";
import { createHash } from "node:crypto";
import { getDb } from "../db";
import { AppError } from "../errors";
import { witnessIdentity } from "./identity";
import { witnessedLogs } from "./log-list";

/** GET {base_url}/v1/witness: the witness's name, verifier keys, and the logs it follows with the size it holds. */
export async function witnessInfo() {
  const { name, keys } = witnessIdentity();
  const logs = witnessedLogs() ?? new Map();
  const rows = await getDb().read.witnessedLog.findMany({ select: { origin: true, treeSize: true, updatedAt: true } });
  return {
    name,
    vkeys: keys.map((k) => k.vkey),
    logs: [...logs.values()].map((l) => {
      const row = rows.find((r) => r.origin === l.origin);
      return {
        origin: l.origin,
        vkey: l.vkey,
        qpd: l.qpd,
        cosigned_tree_size: row ? Number(row.treeSize) : null,
        cosigned_at: row ? row.updatedAt.toISOString() : null,
      };
    }),
  };
}

/** GET {base_url}/v1/witness/{sha256(origin) hex}/checkpoint: the latest checkpoint cosigned for that log. */
export async function cosignedCheckpointOf(originHash: string): Promise<string> {
  const logs = witnessedLogs() ?? new Map();
  const origin = [...logs.keys()].find((o) => createHash("sha256").update(o).digest("hex") === originHash);
  const row = origin ? await getDb().read.witnessedLog.findUnique({ where: { origin } }) : null;
  if (!row) throw new AppError("not_found", "This witness has never cosigned a checkpoint of that log.");
  return row.note;
}
