// Hashes one File with SHA-256 off the main thread, 4 MiB at a time: only one chunk is ever in
// memory, so a multi-gigabyte video hashes as well as a text file. Nothing is sent anywhere.
import { createSHA256 } from "hash-wasm";
// The main thread imports only the types below (an `import type`), never this module itself.

const HASH_CHUNK_BYTES = 4 * 1024 * 1024;

export type HashRequest = { file: Blob };
export type HashReply = { type: "progress"; loaded: number } | { type: "done"; hash: string; loaded: number } | { type: "error"; message: string };

const scope = self as unknown as { onmessage: ((e: MessageEvent<HashRequest>) => void) | null; postMessage(msg: HashReply): void };

scope.onmessage = async (e) => {
  const file = e.data.file;
  try {
    const hasher = await createSHA256();
    hasher.init();
    let loaded = 0;
    while (loaded < file.size) {
      const end = Math.min(file.size, loaded + HASH_CHUNK_BYTES);
      const chunk = new Uint8Array(await file.slice(loaded, end).arrayBuffer());
      hasher.update(chunk);
      loaded = end;
      scope.postMessage({ type: "progress", loaded });
    }
    scope.postMessage({ type: "done", hash: hasher.digest("hex"), loaded });
  } catch (err) {
    const message = err instanceof Error && err.name === "NotReadableError"
      ? "The file could not be read. It may have been moved, or it is a folder."
      : `The file could not be hashed: ${(err as Error)?.message ?? String(err)}`;
    scope.postMessage({ type: "error", message });
  }
};
