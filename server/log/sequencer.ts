import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import { metrics } from "../observability/metrics.mjs";
import { getStore } from "../store";
import { appendBatch, type FrontierMemo, type LogUnit, unitSize } from "./log-append";
import { getLogIdentity } from "./log-identity";

/**
 * Entries per append transaction: bounded to keep each transaction short. A group larger than
 * this (at most a batch request's 1,000 items) is appended alone.
 */
const MAX_BATCH = 1000;

interface Waiter {
  unit: LogUnit;
  resolve(index: number): void;
  reject(err: unknown): void;
}

/**
 * Group commit. Units (an entry, or a group of entries logged as one) that arrive while a batch
 * is being written form the next batch, so under load each transaction carries many entries
 * and under no load an entry waits for no timer. `append` resolves with the stored position
 * (server/merkle/positions.ts) of the unit's (first) entry only after its transaction (and the checkpoint that
 * covers it, and the unit's own rows) has committed; a unit its effects refused is rejected with their reason once
 * the batch has committed; if the transaction fails, nothing of the batch was written and every
 * waiter is rejected.
 * One sequencer per process; across processes the log row lock in appendBatch serialises.
 */
class Sequencer {
  private queue: Waiter[] = [];
  /** The drain in progress, if any: set whenever the queue is not empty. */
  private draining: Promise<void> | null = null;
  private listeners: (() => void)[] = [];
  private readonly frontier: FrontierMemo = { committed: null, pending: null };

  /** Entries waiting for the next transaction. */
  queuedEntries(): number {
    let n = 0;
    for (const w of this.queue) n += unitSize(w.unit);
    return n;
  }

  /** Resolves once nothing is queued or being written (at shutdown, after the last request). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Calls `fn` after every committed batch (the witnessing scheduler uses it); fn must not throw. */
  onCommit(fn: () => void): void {
    this.listeners.push(fn);
  }

  append(unit: LogUnit): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ unit, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** The queued units the next transaction takes (at least one, then up to MAX_BATCH entries) and their entries. */
  private nextBatch(): { units: number; entries: number } {
    let units = 0;
    let entries = 0;
    for (const w of this.queue) {
      const size = unitSize(w.unit);
      if (units > 0 && entries + size > MAX_BATCH) break;
      units++;
      entries += size;
    }
    return { units, entries };
  }

  /** Never rejects: a failed batch rejects its waiters. */
  private async drain(): Promise<void> {
    try {
      // Let requests that arrived in the same turn of the event loop join the first batch.
      await new Promise((r) => setImmediate(r));
      while (this.queue.length > 0) {
        const { units, entries } = this.nextBatch();
        const batch = this.queue.splice(0, units);
        const started = performance.now();
        try {
          const identity = await getLogIdentity();
          this.frontier.pending = null;
          const outcomes = await getStore().append((w) =>
            appendBatch(
              w,
              identity,
              batch.map((x) => x.unit),
              this.frontier,
            ),
          );
          // A batch that appended nothing left the head, and its frontier, where they were.
          this.frontier.committed = this.frontier.pending ?? this.frontier.committed;
          batch.forEach((w, i) => {
            const o = outcomes[i]!;
            if ("logIndex" in o) w.resolve(o.logIndex);
            else w.reject(o.refused);
          });
          observeBatch(entries, started, "committed");
          for (const fn of this.listeners) fn();
        } catch (err) {
          observeBatch(entries, started, "failed");
          logger.error({ entries, err }, "sequencer batch failed; nothing of it was written");
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      // In the same turn as the queue was last seen empty: a unit queued after it starts a new drain.
      this.draining = null;
    }
  }
}

function observeBatch(entries: number, started: number, outcome: "committed" | "failed"): void {
  const seconds = (performance.now() - started) / 1000;
  metrics.sequencerBatch.observe(entries);
  metrics.sequencerAppend.observe({ outcome }, seconds);
  logger.info({ entries, ms: Math.round(seconds * 10_000) / 10, outcome }, "sequencer batch");
}

export function getSequencer(): Sequencer {
  return processWide("sequencer", () => new Sequencer());
}
