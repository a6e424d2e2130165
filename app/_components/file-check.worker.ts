// Web Worker: hashes the File it is sent and reports progress, keeping the page responsive.
import { sha256File, type HashMessage } from "./file-check-sha256";

const post = (m: HashMessage) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<File>) => {
  try {
    const hex = await sha256File(e.data, (done, total) => post({ type: "progress", done, total }));
    post({ type: "done", hex });
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : "the file could not be read" });
  }
};
