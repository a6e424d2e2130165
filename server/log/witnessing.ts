import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import { quorumMet, type Policy, type PolicyWitness } from "@/lib/verify";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { verifyCosignature } from "@/lib/verify/cosignature";
import { getDb, isUniqueViolation } from "../db";
import { getStore } from "../store";
import type { Checkpoint } from "../store/types";
import { proveConsistency } from "./log-proofs";
import { forgetPublished } from "./published";
import { witnessPolicy } from "./witness-policy";
import { getSequencer } from "./sequencer";
import { addCheckpoint, addCheckpointBody } from "./witness-client";

/**
 * Witnessing (C2SP tlog-witness): the newest checkpoint is sent to each witness of the policy
 * named by HALLMARK_WITNESS_POLICY, with a consistency proof from the size that witness last
 * cosigned, and each cosignature that verifies is stored with its checkpoint. The newest
 * checkpoint whose cosignatures satisfy the policy's quorum becomes the published one.
 *
 * Contract:
 * - Never on the write path: an append only nudges the scheduler. Rounds run at most once per
 *   CADENCE_MS (so about once a second under load), and at once when the log has been idle.
 * - A witness that fails (down, slow, refusing, answering nonsense) is retried with exponential
 *   backoff, and never holds up the log or the other witnesses.
 * - Once per checkpoint across instances: an instance submits to a witness only while it holds
 *   that witness's lease (a conditional update of its WitnessState row), and only if the
 *   witness has not yet cosigned this size.
 * - The published size only moves forward, and only to a size whose stored cosignatures meet
 *   the quorum. Cosignatures are verified before they are stored.
 */
const CADENCE_MS = 1_000;
const TICK_MS = 1_000;
const LEASE_MS = 30_000;
const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** Witnesses the log submits to: those of the policy with a submission URL. */
const submitted = (policy: Policy) => policy.witnesses.filter((w): w is PolicyWitness & { url: string } => Boolean(w.url));

const running = processWide("witnessing", () => ({ scheduler: undefined as Scheduler | undefined }));

class Scheduler {
  private running = false;
  private pending = false;
  private lastStart = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly tick: NodeJS.Timeout;
  private stopped = false;
  private round: Promise<void> = Promise.resolve();

  constructor(private readonly policy: Policy) {
    getSequencer().onCommit(() => this.nudge());
    this.tick = setInterval(() => this.nudge(), TICK_MS).unref();
    this.nudge();
  }

  /** No round starts after this; resolves once the one under way, if any, has ended. */
  stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.tick);
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.round;
  }

  nudge(): void {
    this.pending = true;
    if (this.stopped || this.running || this.timer) return;
    const wait = Math.max(0, this.lastStart + CADENCE_MS - Date.now());
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

/** Starts witnessing in this process if a policy is configured (idempotent). */
export function startWitnessing(): void {
  const policy = witnessPolicy();
  if (!policy || submitted(policy).length === 0 || running.scheduler) return;
  running.scheduler = new Scheduler(policy);
}

/** Stops witnessing in this process (at shutdown), after the round under way. */
export async function stopWitnessing(): Promise<void> {
  await running.scheduler?.stop();
}

/** One round: the newest checkpoint to every witness that has not cosigned it, then publication. */
export async function witnessRound(policy: Policy): Promise<void> {
  const cp = await getStore().reads.latestCheckpoint();
  if (!cp) return;
  await Promise.all(submitted(policy).map((w) => witnessOne(w, cp)));
  await publishIfWitnessed(policy, Number(cp.treeSize));
}

async function witnessOne(w: PolicyWitness & { url: string }, cp: Checkpoint): Promise<void> {
  const db = getDb();
  const size = Number(cp.treeSize);
  const key = w.key.vkey;
  const now = new Date();
  // Read first: most rounds find nothing to do, and must not take the write lock for that.
  const state = await db.read.witnessState.findUnique({ where: { witnessKey: key } });
  if (!state) {
    await db.write((tx) =>
      tx.witnessState.upsert({
        where: { witnessKey: key },
        create: { witnessKey: key, name: w.name, url: w.url, nextAttemptAt: new Date(0) },
        update: {},
      }),
    );
  } else if (
    (state.cosignedSize !== null && state.cosignedSize >= cp.treeSize) ||
    state.nextAttemptAt > now ||
    (state.leaseUntil && state.leaseUntil >= now)
  ) {
    return;
  }
  const claimed = await db.write(async (tx) => {
    const won = await tx.witnessState.updateMany({
      where: {
        witnessKey: key,
        nextAttemptAt: { lte: now },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
        AND: [{ OR: [{ cosignedSize: null }, { cosignedSize: { lt: BigInt(size) } }] }],
      },
      data: { leaseUntil: new Date(now.getTime() + LEASE_MS), lastAttemptAt: now, name: w.name, url: w.url },
    });
    return won.count === 1 ? tx.witnessState.findUnique({ where: { witnessKey: key } }) : null;
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
    let old = claimed.cosignedSize === null ? 0 : Number(claimed.cosignedSize);
    // A 409 names the size the witness holds: one more try from there.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (old > size) return void (await fail(`the witness has cosigned size ${old}, larger than this log's ${size}`));
      const proof = old === 0 || old === size ? [] : await proveConsistency(old, size);
      const answer = await addCheckpoint(w.url, addCheckpointBody(old, proof, cp.note), TIMEOUT_MS);
      if (answer.kind === "conflict") {
        old = answer.size;
        await db.write((tx) => tx.witnessState.update({ where: { witnessKey: key }, data: { cosignedSize: BigInt(old) } }));
        if (old === size) return void (await release(key));
        continue;
      }
      if (answer.kind === "failed") return void (await fail(answer.detail));
      const body = parseSignedNote(cp.note).body;
      let timestamp: number | null = null;
      let signature = "";
      try {
        for (const sig of parseSignedNote(`${body}\n${answer.lines}`).signatures) {
          timestamp = verifyCosignature(body, sig, w.key);
          if (timestamp !== null) {
            signature = sig.base64;
            break;
          }
        }
      } catch {
        // reported below: the answer is not note signature lines
      }
      if (timestamp === null) return void (await fail("200 without a valid cosignature by the witness's key"));
      const at = new Date(timestamp * 1000);
      await db.write(async (tx) => {
        await tx.cosignature.upsert({
          where: { treeSize_witnessKey: { treeSize: cp.treeSize, witnessKey: key } },
          create: { treeSize: cp.treeSize, witnessKey: key, keyName: w.key.name, signature, cosignedAt: at },
          update: {},
        });
        await tx.witnessState.update({
          where: { witnessKey: key },
          data: { cosignedSize: cp.treeSize, cosignedAt: at, lastError: null, failures: 0, leaseUntil: null, nextAttemptAt: new Date(0) },
        });
      });
      forgetPublished();
      return;
    }
    await fail("the witness answered 409 twice");
  } catch (err) {
    await fail(`internal: ${(err as Error).message}`).catch(() => {});
    throw err;
  }
}

function release(key: string) {
  return getDb().write((tx) =>
    tx.witnessState.update({ where: { witnessKey: key }, data: { leaseUntil: null, lastError: null, failures: 0 } }),
  );
}

async function publishIfWitnessed(policy: Policy, size: number): Promise<void> {
  const db = getDb();
  const rows = await db.read.cosignature.findMany({ where: { treeSize: BigInt(size) }, select: { witnessKey: true } });
  const names = new Set(policy.witnesses.filter((w) => rows.some((r) => r.witnessKey === w.key.vkey)).map((w) => w.name));
  if (!quorumMet(policy, names)) return;
  try {
    await db.write(async (tx) => {
      const moved = await tx.publishedCheckpoint.updateMany({
        where: { id: 1, treeSize: { lt: BigInt(size) } },
        data: { treeSize: BigInt(size), updatedAt: new Date() },
      });
      if (moved.count === 0 && !(await tx.publishedCheckpoint.findUnique({ where: { id: 1 } }))) {
        await tx.publishedCheckpoint.create({ data: { id: 1, treeSize: BigInt(size), updatedAt: new Date() } });
      }
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // another instance published first
  }
  forgetPublished();
}
