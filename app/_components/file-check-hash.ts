// Hashes a visitor's file without it leaving the browser: in a Web Worker when one starts,
// else on the main thread.
import { sha256File, type HashMessage } from "./file-check-sha256";

/** Hashes in a Web Worker; falls back to the main thread if the worker cannot run. */
export function hashFile(file: File, onProgress: (done: number, total: number) => void): Promise<string> {
  const mainThread = () => sha256File(file, onProgress, true);
  if (typeof Worker === "undefined") return mainThread();
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL("./file-check.worker.ts", import.meta.url), { type: "module" });
    } catch {
      mainThread().then(resolve, reject);
      return;
    }
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      fn();
    };
    worker.onmessage = (e: MessageEvent<HashMessage>) => {
      const m = e.data;
      if (m.type === "progress") onProgress(m.done, m.total);
      else if (m.type === "done") finish(() => resolve(m.hex));
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
