import "server-only";
import fs from "node:fs";
import { parseVerifierKey } from "@/lib/verify";
import { isValidKeyName, noteKeyId } from "@/lib/verify/checkpoint";
import { getConfig } from "../config";
import { processWide } from "../process-wide";

/** A log this witness follows: its origin and the Ed25519 key its checkpoints must be signed with. */
export interface WitnessedLogEntry {
  origin: string;
  vkey: string;
  keyName: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  qpd: number;
  contact: string;
}

/**
 * Parses a log list in the witness network's format (https://witness-network.org/log-list-format):
 * the header `logs/v0`, then per log `vkey`, `[origin]`, `qpd`, `contact` in that order; blank
 * lines and `#` comments ignored, each line trimmed. Only Ed25519 (0x01) keys, as the format says.
 * Throws with the line number on anything else.
 */
export function parseLogList(text: string): WitnessedLogEntry[] {
  const lines = text
    .split("\n")
    .map((l, i) => ({ n: i + 1, text: l.trim() }))
    .filter((l) => l.text !== "" && !l.text.startsWith("#"));
  if (lines[0]?.text !== "logs/v0") throw new Error(`line ${lines[0]?.n ?? 1}: the list must start with logs/v0`);
  const out: WitnessedLogEntry[] = [];
  let i = 1;
  const take = (key: string, optional = false): string | undefined => {
    const l = lines[i];
    const m = l && new RegExp(`^${key} (.+)$`).exec(l.text);
    if (!m) {
      if (optional) return undefined;
      throw new Error(`line ${l?.n ?? "end"}: expected "${key} …"`);
    }
    i++;
    return m[1]!;
  };
  while (i < lines.length) {
    const vkey = take("vkey")!;
    let key: ReturnType<typeof parseVerifierKey>;
    try {
      key = parseVerifierKey(vkey);
    } catch (err) {
      throw new Error(`line ${lines[i - 1]!.n}: ${(err as Error).message}`);
    }
    const origin = take("origin", true) ?? key.name;
    if (!isValidKeyName(origin)) throw new Error(`line ${lines[i - 1]!.n}: not a valid origin`);
    const qpdText = take("qpd")!;
    if (!/^[1-9][0-9]{0,9}$/.test(qpdText) || Number(qpdText) >= 2 ** 31)
      throw new Error(`line ${lines[i - 1]!.n}: qpd must be in [1, 2^31)`);
    const contact = take("contact")!;
    if (out.some((l) => l.origin === origin)) throw new Error(`the origin ${origin} is listed twice`);
    out.push({
      origin,
      vkey,
      keyName: key.name,
      keyId: noteKeyId(key.name, key.publicKey),
      publicKey: key.publicKey,
      qpd: Number(qpdText),
      contact,
    });
  }
  return out;
}

/** The logs of HALLMARK_WITNESS_LOGS by origin (read once; a bad file fails the start), or null when unset. */
export function witnessedLogs(): Map<string, WitnessedLogEntry> | null {
  return processWide("witnessed-logs", () => ({ logs: readLogs() })).logs;
}

function readLogs(): Map<string, WitnessedLogEntry> | null {
  const file = getConfig().witnessLogsFile;
  if (!file) return null;
  try {
    return new Map(parseLogList(fs.readFileSync(file, "utf8")).map((l) => [l.origin, l]));
  } catch (err) {
    throw new Error(`HALLMARK_WITNESS_LOGS (${file}): ${(err as Error).message}`);
  }
}
