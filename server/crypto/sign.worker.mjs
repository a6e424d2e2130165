// @ts-check
// The Ed25519 signing worker (server/crypto/sign-pool.ts): signs on its own thread, so a large
// batch's signatures do not hold the server's event loop. Plain JavaScript: Next.js bundles it
// as a worker entry, tsx and Vitest run it as it is.
//
// Messages in: { id, keys: [[kid, KeyObject]…] } and either
// - { kids: string[], data: Uint8Array, ends: number[] }: message i is data[ends[i-1] .. ends[i])
//   signed with the key of kids[i]; answered { id, signatures: Uint8Array(64 × n) } (transferred);
// - { attest: AttestRequest } (attestation-bytes.mjs): attestations composed, signed and their
//   leaves hashed here, where the garbage that makes is cheap to collect; answered
//   { id, attested: Attested } (its arrays transferred).
// Or { id, error } when it fails.
import { sign } from "node:crypto";
import { parentPort } from "node:worker_threads";
import { attest } from "./attestation-bytes.mjs";

/**
 * @typedef {{ id: number, keys: [string, import("node:crypto").KeyObject][], kids?: string[], data?: Uint8Array, ends?: number[], attest?: import("./attestation-bytes.mjs").AttestRequest }} SignRequest
 */

const port = parentPort;
if (!port) throw new Error("sign.worker.mjs runs as a worker thread (server/crypto/sign-pool.ts)");

/**
 * @param {Map<string, import("node:crypto").KeyObject>} byKid
 * @param {string} kid
 */
function keyOf(byKid, kid) {
  const key = byKid.get(kid);
  if (!key) throw new Error(`no key was sent for ${kid}`);
  return key;
}

port.on("message", (/** @type {SignRequest} */ { id, keys, kids = [], data, ends = [], attest: req }) => {
  try {
    const byKid = new Map(keys);
    if (req) {
      const attested = attest(req, (kid) => keyOf(byKid, kid));
      port.postMessage({ id, attested }, [attested.leafHashes.buffer, attested.leafSizes.buffer]);
      return;
    }
    const out = new Uint8Array(64 * kids.length);
    let start = 0;
    for (let i = 0; i < kids.length; i++) {
      // i is within kids, and ends has one entry per kid.
      const end = /** @type {number} */ (ends[i]);
      out.set(sign(null, /** @type {Uint8Array} */ (data).subarray(start, end), keyOf(byKid, /** @type {string} */ (kids[i]))), 64 * i);
      start = end;
    }
    port.postMessage({ id, signatures: out }, [out.buffer]);
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
