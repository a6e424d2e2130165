// Naive reference implementation of RFC 9162 §2.1 (MTH, PATH, PROOF/SUBPROOF), written
// straight from the RFC text for tests only. Deliberately independent of the code under test:
// it hashes with node:crypto and recurses exactly as the RFC's definitions do.
import { createHash } from "node:crypto";

const sha256 = (...parts: Uint8Array[]): Uint8Array => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

/** k = the largest power of two smaller than n (n > 1). */
const largestPow2Below = (n: number): number => {
  let k = 1;
  while (k << 1 < n) k <<= 1;
  return k;
};

/** MTH(D[n]) over leaf DATA (not leaf hashes). */
export function refMth(d: Uint8Array[]): Uint8Array {
  const n = d.length;
  if (n === 0) return sha256();
  if (n === 1) return sha256(Uint8Array.of(0x00), d[0]!);
  const k = largestPow2Below(n);
  return sha256(Uint8Array.of(0x01), refMth(d.slice(0, k)), refMth(d.slice(k)));
}

export function refLeafHash(data: Uint8Array): Uint8Array {
  return sha256(Uint8Array.of(0x00), data);
}

/** PATH(m, D[n]): the inclusion proof of leaf m. */
export function refPath(m: number, d: Uint8Array[]): Uint8Array[] {
  const n = d.length;
  if (n === 1 && m === 0) return [];
  const k = largestPow2Below(n);
  if (m < k) return [...refPath(m, d.slice(0, k)), refMth(d.slice(k))];
  return [...refPath(m - k, d.slice(k)), refMth(d.slice(0, k))];
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true): the consistency proof from size m to n. */
export function refProof(m: number, d: Uint8Array[]): Uint8Array[] {
  if (m === 0 || m === d.length) return [];
  return refSubproof(m, d, true);
}

function refSubproof(m: number, d: Uint8Array[], b: boolean): Uint8Array[] {
  const n = d.length;
  if (m === n) return b ? [] : [refMth(d)];
  const k = largestPow2Below(n);
  if (m <= k) return [...refSubproof(m, d.slice(0, k), b), refMth(d.slice(k))];
  return [...refSubproof(m - k, d.slice(k), false), refMth(d.slice(0, k))];
}

/** Deterministic distinct leaf data for index i. */
export function leafDataFor(i: number): Uint8Array {
  return new TextEncoder().encode(`leaf-${i}`);
}
