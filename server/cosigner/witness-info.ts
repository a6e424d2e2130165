import "server-only";
import { createHash } from "node:crypto";
import { getDb } from "../db";
import { AppError } from "../errors";
import { witnessIdentity } from "./identity";
import { witnessedLogs } from "./witnessed-logs";
import { followedLogs } from "./witness-status";

/** GET {base_url}/v1/witness: the witness's name, verifier keys, and the logs it follows with the size it holds. */
export async function witnessInfo() {
  const { name, keys } = await witnessIdentity();
  const logs = (await witnessedLogs())?.logs ?? new Map();
  return { name, vkeys: keys.map((k) => k.vkey), logs: await followedLogs(logs.values()) };
}

/** Each list copy's origins by their SHA-256 (hex), made once per copy rather than per request. */
const byHash = new WeakMap<ReadonlyMap<string, unknown>, Map<string, string>>();

function originOfHash(logs: ReadonlyMap<string, unknown>, originHash: string): string | undefined {
  let hashes = byHash.get(logs);
  if (!hashes) {
    hashes = new Map([...logs.keys()].map((o) => [createHash("sha256").update(o).digest("hex"), o]));
    byHash.set(logs, hashes);
  }
  return hashes.get(originHash);
}

/** GET {base_url}/v1/witness/{sha256(origin) hex}/checkpoint: the latest checkpoint cosigned for that log. */
export async function cosignedCheckpointOf(originHash: string): Promise<string> {
  const origin = originOfHash((await witnessedLogs())?.logs ?? new Map(), originHash);
  const row = origin ? await getDb().read.witnessedLog.findUnique({ where: { origin } }) : null;
  if (!row) throw new AppError("not_found", "This witness has never cosigned a checkpoint of that log.");
  return row.note;
}
