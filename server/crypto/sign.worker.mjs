// @ts-check
// The Ed25519 signing worker (server/crypto/sign-pool.ts): signs on its own thread, so a large
// batch's signatures do not hold the server's event loop. Plain JavaScript: Next.js bundles it
// as a worker entry, tsx and Vitest run it as it is.
//
// Message in: { id, keys: [[kid, KeyObject]…], kids: string[], data: Uint8Array, ends: number[] }:
// message i is data[ends[i-1] .. ends[i]) signed with the key of kids[i]. Message out:
// { id, signatures: Uint8Array(64 × n) } (transferred), or { id, error }.
import { sign } from "node:crypto";
import { parentPort } from "node:worker_threads";

/**
 * @typedef {{ id: number, keys: [string, import("node:crypto").KeyObject][], kids: string[], data: Uint8Array, ends: number[] }} SignRequest
 */

const port = parentPort;
if (!port) throw new Error("sign.worker.mjs runs as a worker thread (server/crypto/sign-pool.ts)");

port.on("message", (/** @type {SignRequest} */ { id, keys, kids, data, ends }) => {
  try {
    const byKid = new Map(keys);
    const out = new Uint8Array(64 * kids.length);
    let start = 0;
    for (let i = 0; i < kids.length; i++) {
      // i is within kids, and ends has one entry per kid.
      const kid = /** @type {string} */ (kids[i]);
      const end = /** @type {number} */ (ends[i]);
      const key = byKid.get(kid);
      if (!key) throw new Error(`no key was sent for ${kid}`);
      out.set(sign(null, data.subarray(start, end), key), 64 * i);
      start = end;
    }
    port.postMessage({ id, signatures: out }, [out.buffer]);
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
