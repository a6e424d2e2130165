// Web Worker: hashes the File it is sent, off the main thread, and reports progress.
import { readFailure, sha256File, type HashMessage } from "./sha256-file";

const post = (m: HashMessage) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<Blob>) => {
  try {
    const hex = await sha256File(e.data, (done, total) => post({ type: "progress", done, total }));
    post({ type: "done", hex });
  } catch (err) {
    post({ type: "error", message: readFailure(err) });
  }
};
