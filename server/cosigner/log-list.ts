import { parseVerifierKey } from "@/lib/verify";
import { isValidKeyName, noteKeyId } from "@/lib/verify/checkpoint";

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

/** An entry of a list that could not be used, and why: `line` is where the entry (or the stray line) starts. */
export interface SkippedEntry {
  line: number;
  origin?: string;
  reason: string;
}

export interface LogList {
  logs: WitnessedLogEntry[];
  skipped: SkippedEntry[];
}

type Line = { n: number; text: string };

/**
 * Parses a log list in the witness network's format (https://witness-network.org/log-list-format):
 * the header `logs/v0`, then per log `vkey`, `[origin]`, `qpd`, `contact` in that order; blank
 * lines and `#` comments ignored, each line trimmed; only Ed25519 (0x01) keys, as the format says.
 *
 * The network's lists are written by others and change: an entry that breaks a rule (or a line
 * outside any entry) is skipped and named in `skipped`, and the others are used. An origin listed
 * twice is used from neither entry, since which key it trusts would be the list's order's choice.
 * Only a text that is not a logs/v0 list at all (no header) throws.
 */
export function parseLogList(text: string): LogList {
  const lines = text
    .split("\n")
    .map((l, i) => ({ n: i + 1, text: l.trim() }))
    .filter((l) => l.text !== "" && !l.text.startsWith("#"));
  if (lines[0]?.text !== "logs/v0") throw new Error(`line ${lines[0]?.n ?? 1}: the list must start with logs/v0`);
  const skipped: SkippedEntry[] = [];
  const entries: WitnessedLogEntry[] = [];
  const starts: number[] = [];
  // An entry runs from its vkey line to the next one.
  let group: Line[] = [];
  const flush = () => {
    if (group.length === 0) return;
    try {
      entries.push(parseEntry(group));
      starts.push(group[0]!.n);
    } catch (err) {
      const origin = /^vkey ([^+\s]+)\+/.exec(group[0]!.text)?.[1];
      skipped.push({ line: group[0]!.n, ...(origin ? { origin } : {}), reason: (err as Error).message });
    }
    group = [];
  };
  for (const l of lines.slice(1)) {
    if (/^vkey\s/.test(l.text)) flush();
    else if (group.length === 0) {
      skipped.push({ line: l.n, reason: `a line outside any entry (an entry starts with vkey): ${l.text.slice(0, 40)}` });
      continue;
    }
    group.push(l);
  }
  flush();
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.origin, (count.get(e.origin) ?? 0) + 1);
  const logs: WitnessedLogEntry[] = [];
  entries.forEach((e, i) => {
    if (count.get(e.origin) === 1) logs.push(e);
    else skipped.push({ line: starts[i]!, origin: e.origin, reason: `the origin ${e.origin} is listed more than once` });
  });
  skipped.sort((a, b) => a.line - b.line);
  return { logs, skipped };
}

/** One entry's lines, from its vkey line on; throws with the line number of what breaks the format. */
function parseEntry(group: Line[]): WitnessedLogEntry {
  let i = 0;
  const take = (key: string, optional = false): string | undefined => {
    const l = group[i];
    const m = l && new RegExp(`^${key} (.+)$`).exec(l.text);
    if (!m) {
      if (optional) return undefined;
      throw new Error(`line ${l?.n ?? group.at(-1)!.n}: expected "${key} …"`);
    }
    i++;
    return m[1]!;
  };
  const vkey = take("vkey")!;
  let key: ReturnType<typeof parseVerifierKey>;
  try {
    key = parseVerifierKey(vkey);
  } catch (err) {
    throw new Error(`line ${group[0]!.n}: ${(err as Error).message}`);
  }
  const origin = take("origin", true) ?? key.name;
  if (!isValidKeyName(origin)) throw new Error(`line ${group[i - 1]!.n}: not a valid origin`);
  const qpdText = take("qpd")!;
  if (!/^[1-9][0-9]{0,9}$/.test(qpdText) || Number(qpdText) >= 2 ** 31)
    throw new Error(`line ${group[i - 1]!.n}: qpd must be in [1, 2^31)`);
  const contact = take("contact")!;
  if (i < group.length) throw new Error(`line ${group[i]!.n}: unexpected after contact: ${group[i]!.text.slice(0, 40)}`);
  return {
    origin,
    vkey,
    keyName: key.name,
    keyId: noteKeyId(key.name, key.publicKey),
    publicKey: key.publicKey,
    qpd: Number(qpdText),
    contact,
  };
}
