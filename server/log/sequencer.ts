import "server-only";
import { getStore } from "../store";
import { appendBatch, type LogEntry } from "./log-append";
import { getLogIdentity } from "./log-identity";

/** Entries per append transaction: bounded to keep each transaction short. */
const MAX_BATCH = 1000;

interface Waiter {
  entry: LogEntry;
  resolve(index: number): void;
  reject(err: unknown): void;
}

/**
 * Group commit. Entries that arrive while a batch is being written form the next batch, so
 * under load each transaction carries many entries and under no load an entry waits for no
 * timer. `append` resolves with the entry's log index only after its transaction (and the
 * checkpoint that covers it, and the entry's own rows) has committed; an entry its effects
 * refused is rejected with their reason once the batch has committed; if the transaction
 * fails, nothing of the batch was written and every waiter is rejected.
 * One sequencer per process; across processes the log row lock in appendBatch serialises.
 */
class Sequencer {
  private queue: Waiter[] = [];
  private running = false;
  private listeners: (() => void)[] = [];

  /** Calls `fn` after every committed batch (the witnessing scheduler uses it); fn must not throw. */
  onCommit(fn: () => void): void {
    this.listeners.push(fn);
  }

  append(entry: LogEntry): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // Let requests that arrived in the same turn of the event loop join the first batch.
      await new Promise((r) => setImmediate(r));
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const identity = await getLogIdentity();
          const outcomes = await getStore().append((w) =>
            appendBatch(
              w,
              identity,
              batch.map((x) => x.entry),
            ),
          );
          batch.forEach((w, i) => {
            const o = outcomes[i]!;
            if ("logIndex" in o) w.resolve(o.logIndex);
            else w.reject(o.refused);
          });
          for (const fn of this.listeners) fn();
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

const globalRef = globalThis as unknown as { __hallmarkSequencer?: Sequencer };

export function getSequencer(): Sequencer {
  globalRef.__hallmarkSequencer ??= new Sequencer();
  return globalRef.__hallmarkSequencer;
}
