// The Ed25519 signing worker (server/crypto/sign-pool.ts): signs on its own thread, so a large
// batch's signatures do not hold the server's event loop. Plain JavaScript: Next.js bundles it
// as a worker entry, tsx and Vitest run it as it is.
//
// Message in: { id, keys: [[kid, KeyObject]…], kids: string[], data: Uint8Array, ends: number[] }:
// message i is data[ends[i-1] .. ends[i]) signed with the key of kids[i]. Message out:
// { id, signatures: Uint8Array(64 × n) } (transferred), or { id, error }.
import { sign } from "node:crypto";
import { parentPort } from "node:worker_threads";

parentPort.on("message", ({ id, keys, kids, data, ends }) => {
  try {
    const byKid = new Map(keys);
    const out = new Uint8Array(64 * kids.length);
    let start = 0;
    for (let i = 0; i < kids.length; i++) {
      const key = byKid.get(kids[i]);
      if (!key) throw new Error(`no key was sent for ${kids[i]}`);
      out.set(sign(null, data.subarray(start, ends[i]), key), 64 * i);
      start = ends[i];
    }
    parentPort.postMessage({ id, signatures: out }, [out.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
