// A local file's digests, computed where the file is. Streaming SHA-256: 4 MiB slices fed to hash-wasm's incremental hasher, so only
// a slice at a time is in memory, whatever the file's size (a multi-gigabyte video included).
// Runs in the Web Worker (sha256.worker.ts), or on the main thread where no worker can start.
import { createSHA256 } from "hash-wasm";
import { pdqOfFile } from "@/lib/fingerprint/browser";
import type { PdqHash } from "@/lib/fingerprint/pdq";

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

/** A file's digests: its SHA-256 and, for an image, its PDQ perceptual hash (or why it has none). */
export interface FileDigest {
  sha256: string;
  pdq: PdqHash | null;
  /** Why an image got no PDQ hash (too large, truncated, undecodable); null otherwise. */
  pdqNote: string | null;
}

/** What the worker answers. */
export type HashMessage =
  | { type: "progress"; done: number; total: number }
  | { type: "done"; digest: FileDigest }
  | { type: "error"; message: string };

/** SHA-256 of the bytes, then PDQ of the picture where the file is an image. */
export async function digestFile(
  file: Blob,
  onProgress?: (done: number, total: number) => void,
  yieldBetween = false,
): Promise<FileDigest> {
  const sha256 = await sha256File(file, onProgress, yieldBetween);
  const { pdq, note } = await pdqOfFile(file);
  return { sha256, pdq, pdqNote: note };
}

/** A read failure, in words for people. */
export function readFailure(err: unknown): string {
  return err instanceof Error && err.name === "NotReadableError"
    ? "The file could not be read. It may have been moved, or it is a folder."
    : `The file could not be hashed: ${err instanceof Error ? err.message : String(err)}`;
}
