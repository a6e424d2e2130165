import "server-only";
import { AppError } from "../errors";
import type { Checkpoint } from "../store/types";
import { publishedMoved, quorumApplies, shardCheckpoint } from "./published";
import { shardOf } from "../merkle/positions";
import { witnessPolicy } from "./witness-policy";
import { witnessCadenceMs } from "./witnessing";

/**
 * Which checkpoint a proof handed out (a proof bundle, a tlog-proof, a certificate, an export) is
 * built on: every proof meets the witness policy, or says it does not yet.
 *
 * - No witness policy, or a quorum of "none": the newest checkpoint (`witnessed: null`).
 * - Otherwise the newest checkpoint whose cosignatures meet the quorum, once it covers the entry
 *   (`witnessed: true`). Until one does, the request waits up to proofWaitMs() (4 s at the
 *   default rate): the next witnessing round starts within the cadence, and a witness answers
 *   within a round trip. Past that, a 503 not_yet_witnessed problem with Retry-After.
 * - A caller that asks for it (`?witnessed=optional`) gets the newest checkpoint at once, with
 *   `witnessed: false` when the quorum has not cosigned it (the route says so in Hallmark-Witnessed).
 */
export const proofWaitMs = (): number => Math.min(witnessCadenceMs(), 5_000) + 3_000;
/** What Retry-After says: about one witnessing round (2 s at the default rate). */
export const proofRetryAfterS = (): number => Math.max(2, Math.ceil(witnessCadenceMs() / 1000));
/** Another instance may publish: the published checkpoint is read again this often while waiting. */
const POLL_MS = 250;

export type WitnessRequirement = "required" | "optional";
export interface ProofCheckpoint {
  checkpoint: Checkpoint;
  /** null: no quorum applies; true: the quorum cosigned it; false: served unwitnessed, as asked. */
  witnessed: boolean | null;
}

/** Whether checkpoint `cp` covers the entry at stored position `position` (same shard, larger size). */
const covers = (cp: Checkpoint | null, position: number): cp is Checkpoint =>
  cp !== null && shardOf(cp.treeSize) === shardOf(position) && Number(cp.treeSize) > position;

/**
 * The checkpoint a proof of the entry at stored position `position` (server/merkle/positions.ts) is built on
 * (see above), in the entry's shard; `newest`, its shard's newest, covers the entry.
 */
export async function checkpointForProof(position: number, newest: Checkpoint, requirement: WitnessRequirement): Promise<ProofCheckpoint> {
  if (!witnessPolicy()) return { checkpoint: newest, witnessed: null };
  const now = await shardCheckpoint(shardOf(position));
  if (!quorumApplies()) return { checkpoint: covers(now, position) ? now : newest, witnessed: null };
  if (covers(now, position)) return { checkpoint: now, witnessed: true };
  if (requirement === "optional") return { checkpoint: newest, witnessed: false };
  return { checkpoint: await awaitWitnessed(position), witnessed: true };
}

/**
 * Waits, up to proofWaitMs(), for a checkpoint the quorum cosigned that covers the entry at
 * stored position `position`; throws not_yet_witnessed past it. Resolves at once without a quorum to meet.
 */
export async function awaitWitnessed(position: number): Promise<Checkpoint> {
  const deadline = Date.now() + proofWaitMs();
  for (;;) {
    const cp = await shardCheckpoint(shardOf(position));
    if (covers(cp, position) || (cp && !quorumApplies())) return cp;
    const left = deadline - Date.now();
    if (left <= 0) break;
    await Promise.race([publishedMoved(), sleep(Math.min(POLL_MS, left))]);
  }
  throw new AppError(
    "not_yet_witnessed",
    `This entry's checkpoint has not yet been cosigned by the witnesses the log's policy requires; try again in ${proofRetryAfterS()} s, or add ?witnessed=optional to take the proof as it is now (its Hallmark-Witnessed header then says false).`,
    undefined,
    { "retry-after": String(proofRetryAfterS()) },
  );
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
