// Streaming SHA-256 of a local file: 4 MiB slices fed to hash-wasm's incremental hasher, so only
// a slice at a time is in memory, whatever the file's size (a multi-gigabyte video included).
// Runs in the Web Worker (sha256.worker.ts), or on the main thread where no worker can start.
import { createSHA256 } from "hash-wasm";

export const CHUNK_BYTES = 4 * 1024 * 1024;

export async function sha256File(file: Blob, onProgress?: (done: number, total: number) => void, yieldBetween = false): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += CHUNK_BYTES) {
    hasher.update(new Uint8Array(await file.slice(offset, offset + CHUNK_BYTES).arrayBuffer()));
    onProgress?.(Math.min(offset + CHUNK_BYTES, file.size), file.size);
    if (yieldBetween) await new Promise((r) => setTimeout(r, 0));
  }
  return hasher.digest("hex");
}

/** What the worker answers. */
export type HashMessage =
  | { type: "progress"; done: number; total: number }
  | { type: "done"; hex: string }
  | { type: "error"; message: string };

/** A read failure, in words for people. */
export function readFailure(err: unknown): string {
  return err instanceof Error && err.name === "NotReadableError"
    ? "The file could not be read. It may have been moved, or it is a folder."
    : `The file could not be hashed: ${err instanceof Error ? err.message : String(err)}`;
}
