// A log made by a test, as a client of a witness that is not Hallmark's own log: its own Ed25519
// key, its tree hashes and consistency proofs computed here from RFC 6962 (not from
// lib/verify), and the add-checkpoint bodies of C2SP tlog-witness.
import { createHash, generateKeyPairSync, sign } from "node:crypto";

export const sha = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
export const leafHash = (d: Uint8Array) => sha(Buffer.from([0]), d);
const largestPow2Below = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

/** RFC 6962's Merkle tree hash of leaf hashes. */
export function mth(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return sha();
  if (hashes.length === 1) return hashes[0]!;
  const k = largestPow2Below(hashes.length);
  return sha(Buffer.from([1]), mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}

/** RFC 6962's SUBPROOF(m, D[n], b): subproof(m, d, true) is the consistency proof from size m to d.length. */
export function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = largestPow2Below(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

/** n leaf hashes; those from the 8th on carry `tag`, so two tags fork after size 8. */
export const leaves = (n: number, tag = "") => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`entry ${i}${i >= 8 ? tag : ""}`)));

/** An add-checkpoint body: the old size line, the proof lines, a blank line, the checkpoint. */
export const request = (old: number, proof: Buffer[], note: string) =>
  `old ${old}\n${proof.map((h) => `${h.toString("base64")}\n`).join("")}\n${note}`;

export interface FakeLog {
  origin: string;
  vkey: string;
  /** The signature line's base64 (key ID and signature) on `body`. */
  signatureOf(body: string): string;
  /** The checkpoint of the first `size` of `hashes`, with extension lines, signed by the log's key. */
  checkpoint(hashes: Buffer[], size?: number, extensions?: string[]): string;
}

/** A log of origin `origin` with a fresh Ed25519 key. */
export function fakeLog(origin: string): FakeLog {
  const key = generateKeyPairSync("ed25519");
  const pub = key.publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const keyId = sha(Buffer.from(`${origin}\n`), Buffer.from([1]), pub).subarray(0, 4);
  const signatureOf = (body: string) => Buffer.concat([keyId, sign(null, Buffer.from(body), key.privateKey)]).toString("base64");
  return {
    origin,
    vkey: `${origin}+${keyId.toString("hex")}+${Buffer.concat([Buffer.from([1]), pub]).toString("base64")}`,
    signatureOf,
    checkpoint(hashes, size = hashes.length, extensions = []) {
      const body = `${origin}\n${size}\n${mth(hashes.slice(0, size)).toString("base64")}\n${extensions.map((e) => `${e}\n`).join("")}`;
      return `${body}\n\u2014 ${origin} ${signatureOf(body)}\n`;
    },
  };
}
