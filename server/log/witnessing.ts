import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import { metrics } from "../observability/metrics.mjs";
import type { Policy, PolicyWitness } from "@/lib/verify";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { verifyCosignature } from "@/lib/verify/cosignature";
import { getConfig } from "../config";
import { getDb } from "../db";
import { getStore } from "../store";
import type { Checkpoint } from "../store/types";
import { proveConsistency } from "./log-proofs";
import { forgetPublished } from "./published";
import { publishWitnessed } from "./witness-publish";
import { witnessPolicy } from "./witness-policy";
import { signWithMlDsa } from "./log-ml-dsa";
import { localOf, positionOf, shardOf } from "../merkle/positions";
import { getShards, shardOrThrow } from "./shards";
import { getSequencer } from "./sequencer";
import { addCheckpoint, addCheckpointBody } from "./witness-client";

/**
 * Witnessing (C2SP tlog-witness): the newest checkpoint is sent to each witness of the policy
 * named by HALLMARK_WITNESS_POLICY, with a consistency proof from the size that witness last
 * cosigned, and each cosignature that verifies is stored with its checkpoint. The newest
 * checkpoint whose own cosignatures satisfy the policy's quorum becomes the published one.
 *
 * Contract:
 * - Never on the write path: an append only nudges the scheduler. Rounds run at most once per
 *   witnessCadenceMs() (once a second by default), and a tick nudges them when idle, so the
 *   newest checkpoint is offered again until every witness has cosigned it.
 * - A witness that fails (down, slow, refusing, answering nonsense) is retried with exponential
 *   backoff, and never holds up the log or the other witnesses: each witness's submission runs
 *   on its own, a round starts none for a witness whose last one is still under way, and the
 *   published checkpoint moves as soon as the cosignatures stored meet the quorum.
 * - Once per checkpoint and refresh across instances: an instance submits to a witness only
 *   while it holds that witness's lease (a conditional update of its WitnessState row), and only
 *   if that witness's cosignature of this size is not stored yet, or is older than
 *   witnessRefreshMs() (then the newest checkpoint is sent again, so an idle log's cosignatures
 *   stay fresh; a newer cosignature replaces the stored one).
 * - The published size only moves forward, and only to a size whose stored cosignatures meet
 *   the quorum. Cosignatures are verified before they are stored.
 * - After a key rotation (a new shard, server/merkle/positions.ts), a witness that last cosigned the frozen
 *   shard is first given that shard's final checkpoint (what proofs of its entries are built on,
 *   its successor statement included), then the new shard's from size 0: to a witness, a new
 *   origin is a new log.
 */
/**
 * Rounds start at most this often: 86,400 s over HALLMARK_WITNESS_RATE (the add-checkpoint
 * requests per witness per day the log declares to the witness network), a second by default.
 * A round sends each witness one request, and more only after a 409 (at most ATTEMPTS in all).
 */
export const witnessCadenceMs = (): number => Math.max(1_000, Math.ceil(86_400_000 / getConfig().witnessQpd));
/**
 * A witness's cosignature of the newest checkpoint older than this is asked for again, so
 * clients see a recent timestamp even while the log does not grow (HALLMARK_WITNESS_REFRESH, 4
 * minutes by default); never sooner than the declared rate allows.
 */
export const witnessRefreshMs = (): number => Math.max(witnessCadenceMs(), getConfig().witnessRefreshSeconds * 1000);
const TICK_MS = 1_000;
/** Longer than a round with a witness that takes the whole TIMEOUT_MS; what a killed instance holds up. */
const LEASE_MS = 15_000;
const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** Witnesses the log submits to: those of the policy with a submission URL. */
const submitted = (policy: Policy) => policy.witnesses.filter((w): w is PolicyWitness & { url: string } => Boolean(w.url));

const running = processWide("witnessing", () => ({
  scheduler: undefined as Scheduler | undefined,
  /** Each witness's submission under way, by its key. */
  busy: new Map<string, Promise<void>>(),
}));

class Scheduler {
  private running = false;
  private pending = false;
  private lastStart = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly tick: NodeJS.Timeout;
  private stopped = false;
  private round: Promise<void> = Promise.resolve();

  constructor(private readonly policy: Policy | null) {
    getSequencer().onCommit(() => this.nudge());
    this.tick = setInterval(() => this.nudge(), TICK_MS).unref();
    this.nudge();
  }

  /** No round starts after this; resolves once the one under way and every submission have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.tick);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.round;
    await Promise.all(running.busy.values());
  }

  nudge(): void {
    this.pending = true;
    if (this.stopped || this.running || this.timer) return;
    const wait = Math.max(0, this.lastStart + witnessCadenceMs() - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.round = this.run();
    }, wait);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.running = true;
    this.pending = false;
    this.lastStart = Date.now();
    try {
      await witnessRound(this.policy);
    } catch (err) {
      logger.error({ err }, "witnessing round failed");
    } finally {
      this.running = false;
      if (this.pending) this.nudge();
    }
  }
}

/**
 * Starts this process's rounds (idempotent): the newest checkpoint given the log's ML-DSA-44
 * line if it was signed before every checkpoint carried one (log-ml-dsa.ts), then, with a
 * witness policy, offered to its witnesses.
 */
export function startWitnessing(): void {
  if (running.scheduler) return;
  running.scheduler = new Scheduler(witnessPolicy());
}

/** Stops witnessing in this process (at shutdown), after the round under way. */
export async function stopWitnessing(): Promise<void> {
  await running.scheduler?.stop();
}

/**
 * One round: the newest checkpoint (and the newest frozen shard's final one) given its shard's
 * ML-DSA-44 line if it lacks one, then offered to every witness that has not cosigned it lately
 * and has no submission under way. Resolves once those are started and what is stored is published; each
 * submission publishes again when it ends, so one slow witness never delays publication by
 * the others.
 */
async function witnessRound(policy: Policy | null): Promise<void> {
  const cp = await getStore().reads.latestCheckpoint();
  if (!cp) return;
  let signed = await signWithMlDsa((await shardOrThrow(shardOf(cp.treeSize))).origin, cp);
  const frozen = await newestFinal();
  if (frozen && (await signWithMlDsa(frozen.origin, frozen.checkpoint))) signed = true;
  if (signed) forgetPublished();
  if (!policy) return;
  for (const w of submitted(policy)) {
    const key = w.key.vkey;
    if (running.busy.has(key)) continue;
    const submission = witnessOne(w, cp)
      .then(() => publishWitnessed(policy))
      .catch((err) => logger.error({ err, witness: w.name }, "witnessing failed"))
      .finally(() => {
        running.busy.delete(key);
        running.scheduler?.nudge();
      });
    running.busy.set(key, submission);
  }
  // Cosignatures another instance stored count as much as ours.
  await publishWitnessed(policy);
}

/** The newest frozen shard's origin and final checkpoint, if a rotation froze one. */
async function newestFinal(): Promise<{ shard: number; origin: string; checkpoint: Checkpoint } | null> {
  const shard = (await getShards()).filter((s) => s.frozenAt).at(-1);
  if (!shard) return null;
  const checkpoint = await finalCheckpoint(shard.shard);
  return checkpoint && { shard: shard.shard, origin: shard.origin, checkpoint };
}

/** A frozen shard's final checkpoint (null while the shard is current). */
async function finalCheckpoint(shard: number): Promise<Checkpoint | null> {
  const s = await shardOrThrow(shard);
  if (s.finalSize === null) return null;
  return getDb().read.checkpoint.findUnique({ where: { treeSize: BigInt(positionOf(shard, s.finalSize)) } });
}

/** At most this many add-checkpoint requests to one witness in one round (409s lead to the next). */
const ATTEMPTS = 4;

type CosignatureReader = Pick<ReturnType<typeof getDb>["read"], "cosignature">;
const hasCosignature = (db: CosignatureReader, size: bigint, key: string) =>
  db.cosignature.findUnique({ where: { treeSize_witnessKey: { treeSize: size, witnessKey: key } }, select: { treeSize: true } });

/**
 * Whether witness `key` needs nothing for checkpoint `size`: its cosignature is stored and was
 * made (or last asked for) within witnessRefreshMs. A cosignature stating no time counts from
 * the last attempt, so a witness that only ever answers such lines is asked once per refresh.
 */
async function upToDate(db: CosignatureReader, size: bigint, key: string, lastAttemptAt: Date | null | undefined): Promise<boolean> {
  const row = await db.cosignature.findUnique({
    where: { treeSize_witnessKey: { treeSize: size, witnessKey: key } },
    select: { cosignedAt: true },
  });
  if (!row) return false;
  const staleBefore = Date.now() - witnessRefreshMs();
  return row.cosignedAt.getTime() >= staleBefore || (lastAttemptAt ? lastAttemptAt.getTime() >= staleBefore : false);
}

/**
 * Offers checkpoint `cp` to witness `w` unless its cosignature of that size is stored (C2SP
 * tlog-witness, as the client side): from the size the witness last cosigned, with a
 * consistency proof; from the size a 409 names, smaller or larger (at the same size, the
 * resubmission returns the witness's cosignature again, so a lost 200 is recovered); a
 * checkpoint a newer one of this log covers when the witness is ahead of `cp`. A 422 and a
 * witness ahead of the log's newest checkpoint are alerts (log line, metric, `admin witnesses`),
 * the 422's request and answer kept as evidence.
 */
async function witnessOne(w: PolicyWitness & { url: string }, cp: Checkpoint): Promise<void> {
  const db = getDb();
  const key = w.key.vkey;
  const now = new Date();
  // Read first: most rounds find nothing to do, and must not take the write lock for that.
  const state = await db.read.witnessState.findUnique({ where: { witnessKey: key } });
  if (await upToDate(db.read, cp.treeSize, key, state?.lastAttemptAt)) return;
  if (!state) {
    await db.write((tx) =>
      tx.witnessState.upsert({
        where: { witnessKey: key },
        create: { witnessKey: key, name: w.name, url: w.url, nextAttemptAt: new Date(0) },
        update: {},
      }),
    );
  } else if (state.nextAttemptAt > now || (state.leaseUntil && state.leaseUntil >= now)) {
    return;
  }
  const claimed = await db.write(async (tx) => {
    const before = await tx.witnessState.findUnique({ where: { witnessKey: key }, select: { lastAttemptAt: true } });
    const won = await tx.witnessState.updateMany({
      where: { witnessKey: key, nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      data: { leaseUntil: new Date(now.getTime() + LEASE_MS), lastAttemptAt: now, name: w.name, url: w.url },
    });
    if (won.count !== 1) return null;
    // Another instance may have stored (or asked for) this cosignature since the read above: once per checkpoint and refresh.
    if (await upToDate(tx, cp.treeSize, key, before?.lastAttemptAt)) {
      await tx.witnessState.update({ where: { witnessKey: key }, data: { leaseUntil: null } });
      return null;
    }
    return tx.witnessState.findUnique({ where: { witnessKey: key } });
  });
  if (!claimed) return;
  const failures = claimed.failures;
  const fail = (detail: string) => {
    // For the operator: the public log answer counts failures but never says why.
    logger.warn({ witness: w.name, failures: failures + 1, detail }, "witness attempt failed");
    return db.write((tx) =>
      tx.witnessState.update({
        where: { witnessKey: key },
        data: {
          lastError: detail,
          failures: failures + 1,
          leaseUntil: null,
          nextAttemptAt: new Date(Date.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures)),
        },
      }),
    );
  };
  try {
    let target = cp;
    // Sizes are the target shard's own (what the witness knows of that origin).
    let old = 0;
    const cosigned = claimed.cosignedSize === null ? null : Number(claimed.cosignedSize);
    if (cosigned !== null && shardOf(cosigned) === shardOf(cp.treeSize)) old = localOf(cosigned);
    else if (cosigned !== null && shardOf(cosigned) < shardOf(cp.treeSize)) {
      // It last cosigned an earlier shard: that shard's final checkpoint first, if it lacks it.
      const final = await finalCheckpoint(shardOf(cosigned));
      if (final && cosigned < Number(final.treeSize) && !(await hasCosignature(db.read, final.treeSize, key))) {
        target = final;
        old = localOf(cosigned);
      }
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const shard = shardOf(target.treeSize);
      const size = localOf(target.treeSize);
      if (old > size) {
        // The witness holds a larger size: another instance's newer checkpoint, or a log that lost entries.
        const newest = await getStore().reads.latestCheckpoint();
        if (newest && shardOf(newest.treeSize) === shard && localOf(newest.treeSize) >= old) {
          target = newest;
          // Another instance may have had it cosigned already: then there is nothing to send.
          if (await hasCosignature(db.read, target.treeSize, key)) {
            await db.write((tx) => tx.witnessState.update({ where: { witnessKey: key }, data: { leaseUntil: null } }));
            return;
          }
          continue;
        }
        metrics.witnessAlerts.inc({ witness: w.name, kind: "ahead" });
        logger.error(
          { witness: w.name, witness_size: old, log_size: size },
          "ALERT: a witness holds a larger size of this log than the log has",
        );
        return void (await fail(`the witness has cosigned size ${old}, larger than this log's newest checkpoint (${size})`));
      }
      const proof = old === 0 || old === size ? [] : await proveConsistency(shard, old, size);
      const request = addCheckpointBody(old, proof, target.note);
      const answer = await addCheckpoint(w.url, request, TIMEOUT_MS);
      metrics.witnessSubmissions.inc({ witness: w.name, outcome: answer.kind });
      if (answer.kind === "conflict") {
        old = answer.size;
        await db.write((tx) =>
          tx.witnessState.update({ where: { witnessKey: key }, data: { cosignedSize: BigInt(positionOf(shard, old)) } }),
        );
        continue;
      }
      if (answer.kind === "inconsistent") {
        await keepEvidence(w, target, request, answer.text);
        return void (await fail(`422: the witness found checkpoint ${size} inconsistent with what it cosigned (kept as evidence)`));
      }
      if (answer.kind === "failed") return void (await fail(answer.detail));
      const body = parseSignedNote(target.note).body;
      let timestamp: number | null = null;
      let signature = "";
      try {
        // The witness's newest valid line: one stating no time (0) is kept only if it has no other.
        for (const sig of parseSignedNote(`${body}\n${answer.lines}`).signatures) {
          const t = verifyCosignature(body, sig, w.key);
          if (t !== null && (timestamp === null || t > timestamp)) {
            timestamp = t;
            signature = sig.base64;
          }
        }
      } catch {
        // reported below: the answer is not note signature lines
      }
      if (timestamp === null) return void (await fail("200 without a valid cosignature by the witness's key"));
      const at = new Date(timestamp * 1000);
      await db.write(async (tx) => {
        // A newer cosignature of the same checkpoint replaces the stored one (the fresh timestamp
        // is what it is asked again for); an older or timeless one never does.
        const where = { treeSize_witnessKey: { treeSize: target.treeSize, witnessKey: key } };
        const stored = await tx.cosignature.findUnique({ where, select: { cosignedAt: true } });
        if (!stored) {
          await tx.cosignature.create({
            data: { treeSize: target.treeSize, witnessKey: key, keyName: w.key.name, signature, cosignedAt: at },
          });
        } else if (at > stored.cosignedAt) {
          await tx.cosignature.update({ where, data: { keyName: w.key.name, signature, cosignedAt: at } });
        }
        const newest = stored && stored.cosignedAt > at ? stored.cosignedAt : at;
        await tx.witnessState.update({
          where: { witnessKey: key },
          data: {
            cosignedSize: target.treeSize,
            cosignedAt: newest,
            lastError: null,
            failures: 0,
            leaseUntil: null,
            nextAttemptAt: new Date(0),
          },
        });
      });
      forgetPublished();
      return;
    }
    await fail(`the witness answered 409 ${ATTEMPTS} times`);
  } catch (err) {
    await fail(`internal: ${(err as Error).message}`).catch(() => {});
    throw err;
  }
}

/** A 422: possible evidence that the log showed this witness a fork. Kept whole, and raised. */
async function keepEvidence(w: PolicyWitness, cp: Checkpoint, request: string, answer: string): Promise<void> {
  metrics.witnessAlerts.inc({ witness: w.name, kind: "inconsistent" });
  logger.error(
    { witness: w.name, tree_size: localOf(cp.treeSize), shard: shardOf(cp.treeSize) },
    "ALERT: a witness answered 422 (the checkpoint is inconsistent with what it cosigned before); request and answer kept in witness_evidence",
  );
  await getDb().write((tx) =>
    tx.witnessEvidence.create({ data: { witnessKey: w.key.vkey, name: w.name, treeSize: cp.treeSize, status: 422, request, answer } }),
  );
}
