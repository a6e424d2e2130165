// Streaming SHA-256 of a local file: 4 MiB slices fed to hash-wasm, so memory stays flat
// for any file size. Runs inside the Web Worker (file-check.worker.ts), or on the main thread
// (yielding between slices) where a worker cannot start.
import { createSHA256 } from "hash-wasm";

export const CHUNK_BYTES = 4 * 1024 * 1024;

export async function sha256File(file: Blob, onProgress?: (done: number, total: number) => void, yieldBetween = false): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += CHUNK_BYTES) {
    const chunk = new Uint8Array(await file.slice(offset, offset + CHUNK_BYTES).arrayBuffer());
    hasher.update(chunk);
    onProgress?.(Math.min(offset + CHUNK_BYTES, file.size), file.size);
    if (yieldBetween) await new Promise((r) => setTimeout(r, 0));
  }
  return hasher.digest("hex");
}

export type HashMessage = { type: "progress"; done: number; total: number } | { type: "done"; hex: string } | { type: "error"; message: string };
