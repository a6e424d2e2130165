// Web Worker: digests the File it is sent (SHA-256, and PDQ for an image), off the main thread,
// and reports progress.
import { digestFile, readFailure, type HashMessage } from "./sha256-file";

const post = (m: HashMessage) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<Blob>) => {
  try {
    const digest = await digestFile(e.data, (done, total) => post({ type: "progress", done, total }));
    post({ type: "done", digest });
  } catch (err) {
    post({ type: "error", message: readFailure(err) });
  }
};
