// The one way the pages digest a file (Protect, and a visitor's "Check your file"): SHA-256 in a
// Web Worker, streamed in slices, and PDQ of an image; the file never leaves the browser.
import { digestFile, type FileDigest, readFailure, type HashMessage } from "./sha256-file";

export type { FileDigest };

export interface HashOptions {
  onProgress?: (done: number, total: number) => void;
  /** Aborting stops the worker at once; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

const aborted = () => new DOMException("Hashing was cancelled.", "AbortError");

/**
 * Digests in a Web Worker (SHA-256, and PDQ for an image); falls back to the main thread
 * (yielding between slices) if no worker can run.
 */
export function hashFile(file: Blob, { onProgress, signal }: HashOptions = {}): Promise<FileDigest> {
  if (signal?.aborted) return Promise.reject(aborted());
  const mainThread = () => digestFile(file, onProgress, true).catch((err) => Promise.reject(new Error(readFailure(err))));
  if (typeof Worker === "undefined") return mainThread();
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./sha256.worker.ts", import.meta.url), { type: "module", name: "hallmark-sha256" });
    } catch {
      mainThread().then(resolve, reject);
      return;
    }
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const onAbort = () => finish(() => reject(aborted()));
    signal?.addEventListener("abort", onAbort);
    worker.onmessage = (e: MessageEvent<HashMessage>) => {
      const m = e.data;
      if (m.type === "progress") onProgress?.(m.done, m.total);
      else if (m.type === "done") finish(() => resolve(m.digest));
      else finish(() => reject(new Error(m.message)));
    };
    // The worker failed to load or crashed: hash on the main thread instead.
    worker.onerror = (e) => {
      e.preventDefault();
      finish(() => mainThread().then(resolve, reject));
    };
    worker.postMessage(file);
  });
}
