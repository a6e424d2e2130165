import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex } from "../../lib/verify/encoding";
import { leafHash, verifyConsistency, verifyInclusion } from "../../lib/verify/merkle";
import { leafDataFor, refLeafHash, refMth, refPath, refProof } from "../../lib/verify/testing/merkle-reference";
import { buildConsistencyProof, buildInclusionProof, consistencyProofPlan, inclusionProofPlan, type RangeCache } from "../log/merkle-proof";
import { appendLeaves, frontierPositions, nodeKey, rootFromFrontier, type NodePosition } from "./merkle-tree";

const N = 70;
const data = Array.from({ length: N }, (_, i) => leafDataFor(i));
const hashes = data.map(refLeafHash);
const roots = Array.from({ length: N + 1 }, (_, n) => refMth(data.slice(0, n)));

/** An in-memory node store fed only by appendLeaves, as the database would be. */
class Store {
  nodes = new Map<string, Uint8Array>();
  size = 0;
  frontier: Uint8Array[] = [];
  reads: NodePosition[][] = [];
  append(leaves: Uint8Array[]) {
    const r = appendLeaves(this.size, this.frontier, leaves);
    for (const node of r.newNodes) {
      const key = nodeKey(node.level, node.index);
      if (this.nodes.has(key)) throw new Error(`node ${key} written twice`);
      this.nodes.set(key, node.hash);
    }
    this.size = r.size;
    this.frontier = r.frontier;
    return r;
  }
  getNodes = async (positions: NodePosition[]) => {
    this.reads.push(positions);
    const out = new Map<string, Uint8Array>();
    for (const p of positions) {
      const h = this.nodes.get(nodeKey(p.level, p.index));
      if (h) out.set(nodeKey(p.level, p.index), h);
    }
    return out;
  };
}

/** A store holding the first n leaves, appended in the given batch sizes. */
function storeOf(n: number, batches: number[] = [n]): Store {
  const s = new Store();
  let i = 0;
  for (const b of batches) {
    s.append(hashes.slice(i, Math.min(n, i + b)));
    i = Math.min(n, i + b);
  }
  s.append(hashes.slice(i, n));
  return s;
}

const full = storeOf(N);
const log2ceil = (n: number) => Math.ceil(Math.log2(n));

describe("appendLeaves", () => {
  it("computes the RFC 9162 root of every size 0..70, whatever the batch split", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 40 }), (batches) => {
        const s = new Store();
        expect(s.append([]).root).toEqual(roots[0]);
        let i = 0;
        for (const b of [...batches, N]) {
          const next = Math.min(N, i + b);
          const r = s.append(hashes.slice(i, next));
          i = next;
          expect(r.size).toBe(i);
          expect(bytesToHex(r.root), `size ${i}`).toBe(bytesToHex(roots[i]!));
          expect(rootFromFrontier(r.frontier)).toEqual(r.root);
        }
        expect(s.nodes).toEqual(full.nodes);
      }),
      { numRuns: 50 },
    );
  });

  it("stores exactly the perfect subtrees, and the frontier sits at frontierPositions", () => {
    for (let n = 0; n <= N; n++) {
      const s = storeOf(n, [3, 1, 4, 1, 5]);
      // A tree of n leaves has one perfect node per (level, index) with (index+1)·2^level ≤ n.
      let expected = 0;
      for (let level = 0; 2 ** level <= n; level++) expected += Math.floor(n / 2 ** level);
      expect(s.nodes.size).toBe(expected);
      for (const [key, hash] of s.nodes) {
        const [level, index] = key.split(":").map(Number) as [number, number];
        const w = 2 ** level;
        expect(hash, key).toEqual(refMth(data.slice(index * w, (index + 1) * w)));
      }
      expect(frontierPositions(n).map((p) => s.nodes.get(nodeKey(p.level, p.index)))).toEqual(s.frontier);
    }
  });

  it("validates its inputs", () => {
    expect(() => appendLeaves(3, [hashes[0]!], [])).toThrow();
    expect(() => appendLeaves(1, [new Uint8Array(31)], [])).toThrow();
    expect(() => appendLeaves(0, [], [new Uint8Array(5)])).toThrow();
    expect(() => appendLeaves(-1, [], [])).toThrow();
    expect(frontierPositions(2 ** 52 + 5)).toEqual([
      { level: 52, index: 0 },
      { level: 2, index: 2 ** 50 },
      { level: 0, index: 2 ** 52 + 4 },
    ]);
  });
});

describe("proofs from stored nodes", () => {
  it("builds the reference inclusion proof for every (index, size ≤ 70) with O(log n) reads", async () => {
    for (let n = 1; n <= N; n++) {
      const s = storeOf(n, [7, 2]);
      for (let i = 0; i < n; i++) {
        s.reads = [];
        const proof = await buildInclusionProof(i, n, s.getNodes);
        expect(proof.map(bytesToHex), `PATH(${i}, ${n})`).toEqual(refPath(i, data.slice(0, n)).map(bytesToHex));
        expect(s.reads.length).toBeLessThanOrEqual(1);
        expect(inclusionProofPlan(i, n).positions.length).toBeLessThanOrEqual(2 * log2ceil(n));
        const leaf = leafHash(data[i]!);
        expect(verifyInclusion(i, n, leaf, proof, roots[n]!)).toBe(true);
        if (n > 1) expect(verifyInclusion((i + 1) % n, n, leaf, proof, roots[n]!)).toBe(false);
        if (n < N) expect(verifyInclusion(i, n + 1, leaf, proof, roots[n + 1]!)).toBe(false);
      }
    }
  });

  it("builds the reference consistency proof for every 1 ≤ m ≤ n ≤ 70 with O(log n) reads", async () => {
    for (let n = 1; n <= N; n++) {
      const s = storeOf(n, [1, 2, 3]);
      for (let m = 1; m <= n; m++) {
        const proof = await buildConsistencyProof(m, n, s.getNodes);
        expect(proof.map(bytesToHex), `PROOF(${m}, ${n})`).toEqual(refProof(m, data.slice(0, n)).map(bytesToHex));
        expect(consistencyProofPlan(m, n).positions.length).toBeLessThanOrEqual(2 * log2ceil(n) + 1);
        expect(verifyConsistency(m, n, proof, roots[m]!, roots[n]!)).toBe(true);
        if (m < n) {
          expect(verifyConsistency(m + 1, n, proof, roots[m + 1]!, roots[n]!)).toBe(false);
          if (n < N) expect(verifyConsistency(m, n + 1, proof, roots[m]!, roots[n + 1]!)).toBe(false);
        }
      }
    }
  });

  it("gives the same proofs through a shared range cache, which spares the composite ranges' nodes", async () => {
    const cached = new Map<string, Uint8Array>();
    const cache: RangeCache = { get: (lo, hi) => cached.get(`${lo}:${hi}`), set: (lo, hi, h) => void cached.set(`${lo}:${hi}`, h) };
    for (let n = 1; n <= N; n++) {
      const s = storeOf(n, [5, 3]);
      for (const round of [1, 2]) {
        let cachedReads = 0;
        let plainReads = 0;
        for (let i = 0; i < n; i++) {
          const proof = await buildInclusionProof(i, n, s.getNodes, cache);
          expect(proof.map(bytesToHex), `PATH(${i}, ${n}) round ${round}`).toEqual(refPath(i, data.slice(0, n)).map(bytesToHex));
          cachedReads += inclusionProofPlan(i, n, cache).positions.length;
          plainReads += inclusionProofPlan(i, n).positions.length;
        }
        // Once known, a composite range's pieces are not read again (7 = 4 + 3: leaf 0's sibling [4, 7) is one).
        if (round === 2) {
          expect(cachedReads, `size ${n}`).toBeLessThanOrEqual(plainReads);
          if (n === 7 || n === 70) expect(cachedReads, `size ${n}`).toBeLessThan(plainReads);
        }
        for (let m = 1; m <= n; m++) {
          const proof = await buildConsistencyProof(m, n, s.getNodes, cache);
          expect(proof.map(bytesToHex), `PROOF(${m}, ${n}) round ${round}`).toEqual(refProof(m, data.slice(0, n)).map(bytesToHex));
        }
      }
    }
    // Right-edge ranges only (hi is a tree size), never a perfect node.
    for (const key of cached.keys()) {
      const [lo, hi] = key.split(":").map(Number) as [number, number];
      expect(Number.isInteger(Math.log2(hi - lo)) && lo % (hi - lo) === 0, key).toBe(false);
      expect(cached.get(key), key).toEqual(refMth(data.slice(lo, hi)));
    }
    expect(cached.size).toBeGreaterThan(0);
    // A plan for a huge tree, whose right-edge element is known, reads fewer nodes.
    const n = 2 ** 40 + 12345;
    const cold = inclusionProofPlan(0, n, cache).positions.length;
    const plan = inclusionProofPlan(0, n, cache);
    plan.assemble(new Map(plan.positions.map((p) => [nodeKey(p.level, p.index), new Uint8Array(32)])));
    expect(inclusionProofPlan(0, n, cache).positions.length).toBeLessThan(cold);
  }, 60_000);

  it("reads only nodes that exist in the tree of that size", () => {
    for (let n = 1; n <= 40; n++) {
      const s = storeOf(n);
      const plans = [
        ...Array.from({ length: n }, (_, i) => inclusionProofPlan(i, n)),
        ...Array.from({ length: n + 1 }, (_, m) => consistencyProofPlan(m, n)),
      ];
      for (const plan of plans)
        for (const p of plan.positions) expect(s.nodes.has(nodeKey(p.level, p.index)), `${p.level}:${p.index} in ${n}`).toBe(true);
    }
  });

  it("keeps plans logarithmic for huge trees and fails loudly on missing nodes", async () => {
    for (const n of [2 ** 40 + 12345, 2 ** 53 - 1, 1e15 + 7]) {
      expect(inclusionProofPlan(n - 1, n).positions.length).toBeLessThanOrEqual(2 * log2ceil(n));
      expect(inclusionProofPlan(Math.floor(n / 3), n).positions.length).toBeLessThanOrEqual(2 * log2ceil(n));
      expect(consistencyProofPlan(Math.floor(n / 3), n).positions.length).toBeLessThanOrEqual(2 * log2ceil(n) + 1);
    }
    await expect(buildInclusionProof(3, 10, async () => new Map())).rejects.toThrow(/missing/);
    expect(() => inclusionProofPlan(5, 5)).toThrow();
    expect(() => consistencyProofPlan(6, 5)).toThrow();
    expect(await buildConsistencyProof(0, 5, full.getNodes)).toEqual([]);
    expect(await buildConsistencyProof(5, 5, full.getNodes)).toEqual([]);
    expect(await buildInclusionProof(0, 1, full.getNodes)).toEqual([]);
  });
});
