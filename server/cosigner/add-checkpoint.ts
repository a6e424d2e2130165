import "server-only";
import { createHash } from "node:crypto";
import { parseCheckpointBody, parseSignedNote, verifyParsedNote, type ParsedNote } from "@/lib/verify/checkpoint";
import { base64ToBytes, bytesEqual } from "@/lib/verify/encoding";
import { emptyRootHash, verifyConsistency } from "@/lib/verify/merkle";
import { getDb, dbBytes, isUniqueViolation } from "../db";
import { AppError } from "../errors";
import { logger } from "../observability/logger.mjs";
import { cosignLines, witnessIdentity } from "./identity";
import { witnessedLogs, type WitnessedLogEntry } from "./log-list";

/** An add-checkpoint body is an old size line, at most 63 proof lines and a checkpoint: 16 KiB is ample. */
export const MAX_ADD_CHECKPOINT_BYTES = 16 * 1024;

/** add-checkpoint's answer: 200 with cosignature lines, or 409 with the size this witness holds. */
export type AddCheckpointAnswer = { status: 200; lines: string } | { status: 409; size: number };

const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;
const B64_HASH = /^[A-Za-z0-9+/]{43}=$/;

const bad = (detail: string) => new AppError("malformed_request", detail);

interface Request {
  old: number;
  proof: Uint8Array[];
  note: string;
  body: string;
  origin: string;
  size: number;
  root: Uint8Array;
  log: WitnessedLogEntry;
  /** The log's signature lines that verified (kept with the cosigned checkpoint). */
  logLines: string[];
}

/** Parses and authenticates a request, in the order C2SP tlog-witness gives its answers. */
function parseRequest(text: string, logs: Map<string, WitnessedLogEntry>): Request {
  const blank = text.indexOf("\n\n");
  if (blank < 0) throw bad("The body must be an old size line, proof lines, a blank line and a checkpoint.");
  const head = text.slice(0, blank).split("\n");
  const oldLine = /^old (.*)$/.exec(head[0] ?? "");
  if (!oldLine || !DECIMAL.test(oldLine[1]!)) throw bad("The first line must be old <size>, a decimal without leading zeros.");
  const proofLines = head.slice(1);
  if (proofLines.length > 63) throw bad("At most 63 consistency proof lines.");
  if (!proofLines.every((l) => B64_HASH.test(l))) throw bad("Each proof line must be one base64 SHA-256 hash.");
  const note = text.slice(blank + 2);
  let parsed: ReturnType<typeof parseSignedNote>;
  let cp: ReturnType<typeof parseCheckpointBody>;
  try {
    parsed = parseSignedNote(note);
    cp = parseCheckpointBody(parsed.body);
  } catch (err) {
    throw bad(`The checkpoint is not a signed note: ${(err as Error).message}.`);
  }
  const log = logs.get(cp.origin);
  if (!log) throw new AppError("unknown_log", "This witness does not follow a log of that origin.");
  const lines = verifyLogSignatures(parsed, log);
  const old = Number(oldLine[1]);
  if (old > cp.treeSize) throw bad("The old size is larger than the checkpoint's size.");
  return {
    old,
    proof: proofLines.map((l) => base64ToBytes(l)),
    note,
    body: parsed.body,
    origin: cp.origin,
    size: cp.treeSize,
    root: cp.rootHash,
    log,
    logLines: lines,
  };
}

/**
 * 403 unless a signature by the log's key verifies, or when one by its key does not (signed-note,
 * as verifyParsedNote checks it); the log's signature lines otherwise.
 */
function verifyLogSignatures(note: ParsedNote, log: WitnessedLogEntry): string[] {
  try {
    verifyParsedNote(note, { name: log.keyName, publicKey: log.publicKey });
  } catch (err) {
    throw new AppError("untrusted_checkpoint", `The checkpoint is not signed by the log's key: ${(err as Error).message}.`);
  }
  return note.signatures
    .filter((s) => s.name === log.keyName && bytesEqual(s.keyId, log.keyId))
    .map((s) => `\u2014 ${s.name} ${s.base64}\n`);
}

const inconsistent = (detail: string) => new AppError("inconsistent_checkpoint", detail);

/**
 * POST {base_url}/v1/witness/add-checkpoint (C2SP tlog-witness, the witness side). Every answer of
 * the spec: 400 malformed, 404 unknown origin, 403 no valid signature by the log's key, 409 (old
 * is not the size this witness holds, with that size), 422 (not consistent with what it holds),
 * 200 with an Ed25519 and an ML-DSA-44 cosignature. The check and the update are one
 * compare-and-set on the stored size and root, committed before the answer, so concurrent
 * requests on any instance never roll the record back nor cosign two trees of one size.
 */
export async function addCheckpoint(text: string): Promise<AddCheckpointAnswer> {
  const logs = witnessedLogs();
  if (!logs) throw new AppError("not_found", "This instance witnesses no log (HALLMARK_WITNESS_LOGS is not set).");
  const req = parseRequest(text, logs);
  const db = getDb();
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await db.read.witnessedLog.findUnique({ where: { origin: req.origin } });
    const storedSize = stored ? Number(stored.treeSize) : 0;
    if (req.old !== storedSize) return { status: 409, size: storedSize };
    if (req.size === 0 && !bytesEqual(req.root, emptyRootHash()))
      throw inconsistent("A checkpoint of size 0 must have the empty tree's root.");
    if (req.old === 0) {
      if (req.proof.length !== 0) throw inconsistent("From old size 0 the consistency proof must be empty.");
    } else if (!verifyConsistency(req.old, req.size, req.proof, stored!.rootHash, req.root)) {
      logger.warn(
        { origin: req.origin, old: req.old, size: req.size },
        "witness: a checkpoint not consistent with the one cosigned (possible fork)",
      );
      throw inconsistent(req.old === req.size ? "The same size with another root hash." : "The consistency proof does not verify.");
    }
    // The same checkpoint again (a resubmission): the cosignatures already given, not new ones.
    if (stored && req.size === storedSize && stored.body === req.body) return { status: 200, lines: stored.cosignatures };
    const lines = cosignLines(req.body);
    const data = {
      treeSize: BigInt(req.size),
      rootHash: dbBytes(req.root),
      body: req.body,
      note: `${req.body}\n${req.logLines.join("")}${lines}`,
      cosignatures: lines,
      updatedAt: new Date(),
    };
    try {
      const moved = await db.write(async (tx) => {
        if (!stored) {
          await tx.witnessedLog.create({ data: { origin: req.origin, ...data } });
          return 1;
        }
        const r = await tx.witnessedLog.updateMany({
          where: { origin: req.origin, treeSize: stored.treeSize, rootHash: dbBytes(stored.rootHash) },
          data,
        });
        return r.count;
      });
      if (moved === 1) return { status: 200, lines };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // another request made the first record
    }
    // Another request moved the record first: judge this one against what it stored.
  }
  throw new AppError("service_unavailable", "The witness's record changed under every attempt; try again.", undefined, {
    "retry-after": "1",
  });
}

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
