import "server-only";
import { bytesEqual } from "@/lib/verify/encoding";
import { emptyRootHash, verifyConsistency } from "@/lib/verify/merkle";
import { getDb, dbBytes, isUniqueViolation } from "../db";
import { AppError } from "../errors";
import { logger } from "../observability/logger.mjs";
import { FAILED_STATUSES, reserveFailure, spendLogRequest } from "./budgets";
import { refusalOf } from "./bindings";
import { cosignedAt, cosignLines, witnessIdentity } from "./identity";
import { witnessedLogs } from "./witnessed-logs";
import { parseRequest } from "./request";

/** add-checkpoint's answer: 200 with cosignature lines, or 409 with the size this witness holds. */
export type AddCheckpointAnswer = { status: 200; lines: string } | { status: 409; size: number };

const inconsistent = (detail: string) => new AppError("inconsistent_checkpoint", detail);

/**
 * POST {base_url}/v1/witness/add-checkpoint (C2SP tlog-witness, the witness side) from the client
 * address `client`. Every answer of the spec: 400 malformed, 404 unknown origin, 403 no valid
 * signature by the log's key, 409 (old is not the size this witness holds, with that size), 422
 * (not consistent with what it holds), 200 with an Ed25519 and an ML-DSA-44 cosignature; 403
 * log_refused when its record of the log is bound to other keys (bindings.ts); and 429
 * once a budget is spent (budgets.ts): the address's for failures, the log's for the rest.
 */
export async function addCheckpoint(text: string, client: string): Promise<AddCheckpointAnswer> {
  const giveBack = await reserveFailure(client);
  try {
    const answer = await witness(text);
    await giveBack();
    return answer;
  } catch (err) {
    if (!(err instanceof AppError && FAILED_STATUSES.has(err.status))) await giveBack();
    throw err;
  }
}

/**
 * The request's work once admitted. The check and the update are one compare-and-set on the
 * stored size and root, committed before the answer, so concurrent requests on any instance never
 * roll the record back nor cosign two trees of one size.
 */
async function witness(text: string): Promise<AddCheckpointAnswer> {
  const list = await witnessedLogs();
  if (!list) throw new AppError("not_found", "This instance witnesses no log (HALLMARK_WITNESS_LOGS is not set).");
  if (!list.readAt)
    throw new AppError("service_unavailable", "This witness could not read its log list yet; try again later.", undefined, {
      "retry-after": "60",
    });
  const req = parseRequest(text, list.logs);
  const identity = await witnessIdentity();
  const db = getDb();
  let spent = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await db.read.witnessedLog.findUnique({ where: { origin: req.origin } });
    const refused = refusalOf(stored, req.log.vkey, identity.vkeys);
    if (refused) throw new AppError("log_refused", `This witness refuses the log until its operator retires it: ${refused}.`);
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
    // The same checkpoint again is cosigned anew: a fresh timestamp is how clients see that a
    // witness still holds this size (C2SP tlog-cosignature), and the newest is what is kept.
    // Within the second of the newest cosignature that one is as fresh as a new one (timestamps
    // are in seconds): a replay of a log's checkpoint costs at most one signing a second.
    const sameCheckpoint = stored && req.size === storedSize && stored.body === req.body;
    if (sameCheckpoint && cosignedAt(stored.cosignatures) === Math.floor(Date.now() / 1000))
      return { status: 200, lines: stored.cosignatures };
    // The log's budget pays for what only its key can cause: a record moved to a new checkpoint.
    // Anyone may replay a published checkpoint, so a replay (at most one signing a second, above)
    // and a 409 (one read) spend nothing of it, and no replayer can exhaust a log's day.
    if (!sameCheckpoint && !spent) {
      await spendLogRequest(req.origin, req.log.qpd);
      spent = true;
    }
    const lines = cosignLines(identity, req.body);
    const data = {
      treeSize: BigInt(req.size),
      rootHash: dbBytes(req.root),
      body: req.body,
      note: `${req.body}\n${req.logLine}${lines}`,
      cosignatures: lines,
      updatedAt: new Date(),
      logVkey: req.log.vkey,
      witnessVkeys: identity.vkeys,
    };
    try {
      const moved = await db.write(async (tx) => {
        if (!stored) {
          await tx.witnessedLog.create({ data: { origin: req.origin, ...data } });
          return 1;
        }
        // The keys too: a record rebound meanwhile (or retired and made anew) is judged again.
        const r = await tx.witnessedLog.updateMany({
          where: {
            origin: req.origin,
            treeSize: stored.treeSize,
            rootHash: dbBytes(stored.rootHash),
            logVkey: stored.logVkey,
            witnessVkeys: stored.witnessVkeys,
          },
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
