import "server-only";
import { MAX_NOTE_SIGNATURES, parseCheckpointBody, parseSignedNote, verifyParsedNote, type ParsedNote } from "@/lib/verify/checkpoint";
import { base64ToBytes, bytesEqual } from "@/lib/verify/encoding";
import { AppError } from "../errors";
import type { WitnessedLogEntry } from "./log-list";

/** An add-checkpoint body is an old size line, at most 63 proof lines and a checkpoint: 16 KiB is ample. */
export const MAX_ADD_CHECKPOINT_BYTES = 16 * 1024;

const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;
const B64_HASH = /^[A-Za-z0-9+/]{43}=$/;

const bad = (detail: string) => new AppError("malformed_request", detail);

/** An add-checkpoint request, parsed and authenticated by the log's key. */
export interface CheckpointRequest {
  old: number;
  proof: Uint8Array[];
  body: string;
  origin: string;
  size: number;
  root: Uint8Array;
  log: WitnessedLogEntry;
  /** The log's one signature line that verified, kept with the cosigned checkpoint. */
  logLine: string;
}

/**
 * The note's signature lines with each key's repeats dropped: the first line by a key (its name
 * and key ID) stays, later ones by the same key go unread, as Go's note.Open does. A note of 100
 * copies of one line is then one line: whatever a caller sends, each key is verified at most once.
 */
export function firstLinePerKey(note: ParsedNote): ParsedNote {
  const seen = new Set<string>();
  const signatures = note.signatures.filter((s) => {
    const key = `${s.name} ${s.keyId.join(",")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { body: note.body, signatures };
}

/**
 * The note with exact repeats of a signature line dropped before any line is decoded, so copies
 * cost no parsing either (firstLinePerKey then drops the other lines of a key already seen). A
 * note of more lines than a note may have is left whole, for parseSignedNote to refuse.
 */
export function withoutRepeatedLines(note: string): string {
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) return note;
  const lines = note.slice(split + 2, -1).split("\n");
  if (lines.length > MAX_NOTE_SIGNATURES) return note;
  const unique = [...new Set(lines)];
  return unique.length === lines.length ? note : `${note.slice(0, split + 2)}${unique.join("\n")}\n`;
}

/**
 * Parses and authenticates a request, in the order C2SP tlog-witness gives its answers: 400 for a
 * body that is not the protocol's, 404 for an origin this witness does not follow, 403 unless the
 * log's key signed it (its first line by that key verifies), 400 for an old size past the
 * checkpoint's. Nothing is read from the database here.
 */
export function parseRequest(text: string, logs: ReadonlyMap<string, WitnessedLogEntry>): CheckpointRequest {
  const blank = text.indexOf("\n\n");
  if (blank < 0) throw bad("The body must be an old size line, proof lines, a blank line and a checkpoint.");
  const head = text.slice(0, blank).split("\n");
  const oldLine = /^old (.*)$/.exec(head[0] ?? "");
  if (!oldLine || !DECIMAL.test(oldLine[1]!)) throw bad("The first line must be old <size>, a decimal without leading zeros.");
  const proofLines = head.slice(1);
  if (proofLines.length > 63) throw bad("At most 63 consistency proof lines.");
  if (!proofLines.every((l) => B64_HASH.test(l))) throw bad("Each proof line must be one base64 SHA-256 hash.");
  let parsed: ParsedNote;
  let cp: ReturnType<typeof parseCheckpointBody>;
  try {
    parsed = firstLinePerKey(parseSignedNote(withoutRepeatedLines(text.slice(blank + 2))));
    cp = parseCheckpointBody(parsed.body);
  } catch (err) {
    throw bad(`The checkpoint is not a signed note: ${(err as Error).message}.`);
  }
  const log = logs.get(cp.origin);
  if (!log) throw new AppError("unknown_log", "This witness does not follow a log of that origin.");
  const logLine = verifyLogSignature(parsed, log);
  const old = Number(oldLine[1]);
  if (old > cp.treeSize) throw bad("The old size is larger than the checkpoint's size.");
  return {
    old,
    proof: proofLines.map((l) => base64ToBytes(l)),
    body: parsed.body,
    origin: cp.origin,
    size: cp.treeSize,
    root: cp.rootHash,
    log,
    logLine,
  };
}

/**
 * 403 unless the log key's line verifies (signed-note: a line by a trusted key that fails makes
 * the note malformed); the line otherwise. `note` holds one line per key (firstLinePerKey), so
 * this is one Ed25519 verification, and lines by other keys are never verified.
 */
function verifyLogSignature(note: ParsedNote, log: WitnessedLogEntry): string {
  try {
    verifyParsedNote(note, { name: log.keyName, publicKey: log.publicKey });
  } catch (err) {
    throw new AppError("untrusted_checkpoint", `The checkpoint is not signed by the log's key: ${(err as Error).message}.`);
  }
  const line = note.signatures.find((s) => s.name === log.keyName && bytesEqual(s.keyId, log.keyId))!;
  return `\u2014 ${line.name} ${line.base64}\n`;
}
