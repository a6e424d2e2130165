import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes, utf8Encode } from "./encoding";
import { emptyRootHash, leafHash, nodeHash, rootFromInclusionProof, verifyConsistency, verifyInclusion } from "./merkle";
import { leafDataFor, refLeafHash, refMth, refPath, refProof } from "./testing/merkle-reference";

// Published RFC 6962 test vectors of the certificate-transparency Go code, now maintained in
// github.com/transparency-dev/merkle: testonly/constants.go (LeafInputs, RootHashes) and
// proof/verify_test.go (inclusionProofs, consistencyProofs; leaf numbers there are 1-based).
const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(hexToBytes);
const ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", // empty tree
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
].map(hexToBytes);
const INCLUSION: [index: number, size: number, proof: string[]][] = [
  [
    0,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    5,
    8,
    [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [
    1,
    5,
    [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
];
const CONSISTENCY: [size1: number, size2: number, proof: string[]][] = [
  [
    1,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    6,
    8,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [
    2,
    5,
    [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
  [
    6,
    7,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
];
const SOME_HASH = hexToBytes("abacaba000000000000000000000000000000000000000000060061e00123456");

/** Corruptions in the style of transparency-dev/merkle's corruptInclusionProof. */
function inclusionProbes(index: number, size: number, leaf: Uint8Array, proof: Uint8Array[], root: Uint8Array) {
  const probes: [string, number, number, Uint8Array, Uint8Array[], Uint8Array][] = [
    ["index - 1", index - 1, size, leaf, proof, root],
    ["index + 1", index + 1, size, leaf, proof, root],
    ["index ^ 2", index ^ 2, size, leaf, proof, root],
    ["size * 2", index, size * 2, leaf, proof, root],
    ["size / 2", index, Math.floor(size / 2), leaf, proof, root],
    ["wrong leaf", index, size, leafHash(utf8Encode("WrongLeaf")), proof, root],
    ["empty root", index, size, leaf, proof, emptyRootHash()],
    ["random root", index, size, leaf, proof, SOME_HASH],
    ["trailing root", index, size, leaf, [...proof, root], root],
    ["preceding root", index, size, leaf, [root, ...proof], root],
    ["trailing garbage", index, size, leaf, [...proof, new Uint8Array(0)], root],
  ];
  proof.forEach((_, i) => {
    const bad = proof.map((h) => h.slice());
    bad[i]![0]! ^= 8;
    probes.push([`flipped bit in proof[${i}]`, index, size, leaf, bad, root]);
  });
  if (proof.length > 0) probes.push(["removed component", index, size, leaf, proof.slice(0, -1), root]);
  if (proof.length > 1) probes.push(["inserted component", index, size, leaf, [proof[0]!, SOME_HASH, ...proof.slice(1)], root]);
  return probes;
}

function consistencyProbes(m: number, n: number, proof: Uint8Array[], r1: Uint8Array, r2: Uint8Array) {
  const probes: [string, number, number, Uint8Array[], Uint8Array, Uint8Array][] = [
    ["size1 - 1", m - 1, n, proof, r1, r2],
    ["size1 + 1", m + 1, n, proof, r1, r2],
    ["size1 ^ 2", m ^ 2, n, proof, r1, r2],
    ["size2 * 2", m, n * 2, proof, r1, r2],
    ["size2 / 2", m, Math.floor(n / 2), proof, r1, r2],
    ["wrong root1", m, n, proof, SOME_HASH, r2],
    ["wrong root2", m, n, proof, r1, SOME_HASH],
    ["swapped roots", m, n, proof, r2, r1],
    ["empty proof", m, n, [], r1, r2],
    ["trailing root1", m, n, [...proof, r1], r1, r2],
    ["trailing root2", m, n, [...proof, r2], r1, r2],
    ["preceding root1", m, n, [r1, ...proof], r1, r2],
    ["preceding root2", m, n, [r2, ...proof], r1, r2],
    ["preceding proof[0]", m, n, [proof[0]!, ...proof], r1, r2],
    ["truncated proof", m, n, proof.slice(0, -1), r1, r2],
  ];
  proof.forEach((_, i) => {
    const bad = proof.map((h) => h.slice());
    bad[i]![0]! ^= 16;
    probes.push([`flipped bit in proof[${i}]`, m, n, bad, r1, r2]);
  });
  return probes;
}

describe("RFC 6962 published vectors", () => {
  it("hashes leaves and computes the published roots for sizes 0..8", () => {
    expect(bytesToHex(emptyRootHash())).toBe(bytesToHex(ROOTS[0]!));
    for (let n = 1; n <= 8; n++) {
      expect(bytesToHex(refMth(LEAVES.slice(0, n)))).toBe(bytesToHex(ROOTS[n]!));
    }
    // The tree of 2 is nodeHash of the two leaf hashes.
    expect(nodeHash(leafHash(LEAVES[0]!), leafHash(LEAVES[1]!))).toEqual(ROOTS[2]);
    expect(leafHash(LEAVES[0]!)).toEqual(ROOTS[1]);
  });

  it.each(INCLUSION)("verifies the inclusion proof of leaf %i in tree %i and rejects corruptions", (index, size, hex) => {
    const proof = hex.map(hexToBytes);
    const leaf = leafHash(LEAVES[index]!);
    const root = ROOTS[size]!;
    expect(rootFromInclusionProof(index, size, leaf, proof)).toEqual(root);
    expect(verifyInclusion(index, size, leaf, proof, root)).toBe(true);
    expect(refPath(index, LEAVES.slice(0, size)).map(bytesToHex)).toEqual(hex);
    for (const [desc, i, s, l, p, r] of inclusionProbes(index, size, leaf, proof, root)) {
      expect(verifyInclusion(i, s, l, p, r), desc).toBe(false);
    }
  });

  it.each(CONSISTENCY)("verifies the consistency proof %i → %i and rejects corruptions", (m, n, hex) => {
    const proof = hex.map(hexToBytes);
    expect(verifyConsistency(m, n, proof, ROOTS[m]!, ROOTS[n]!)).toBe(true);
    expect(refProof(m, LEAVES.slice(0, n)).map(bytesToHex)).toEqual(hex);
    for (const [desc, a, b, p, r1, r2] of consistencyProbes(m, n, proof, ROOTS[m]!, ROOTS[n]!)) {
      expect(verifyConsistency(a, b, p, r1, r2), desc).toBe(false);
    }
  });

  it("handles the trivial and invalid cases like the reference verifier", () => {
    const e = emptyRootHash();
    expect(verifyInclusion(0, 0, SOME_HASH, [], e)).toBe(false);
    expect(verifyInclusion(1, 1, SOME_HASH, [], SOME_HASH)).toBe(false);
    expect(verifyInclusion(0, 1, SOME_HASH, [], SOME_HASH)).toBe(true);
    expect(verifyInclusion(0, 1, SOME_HASH, [], new Uint8Array(0))).toBe(false);
    expect(verifyConsistency(0, 0, [], e, e)).toBe(true);
    expect(verifyConsistency(0, 5, [], e, ROOTS[5]!)).toBe(true);
    expect(verifyConsistency(0, 5, [], SOME_HASH, ROOTS[5]!)).toBe(false);
    expect(verifyConsistency(3, 3, [], ROOTS[3]!, ROOTS[3]!)).toBe(true);
    expect(verifyConsistency(3, 3, [], ROOTS[3]!, ROOTS[4]!)).toBe(false);
    expect(verifyConsistency(3, 3, [e], ROOTS[3]!, ROOTS[3]!)).toBe(false);
    expect(verifyConsistency(2, 1, [], ROOTS[2]!, ROOTS[1]!)).toBe(false);
    expect(verifyConsistency(1, 2, [], ROOTS[1]!, ROOTS[2]!)).toBe(false);
    expect(() => rootFromInclusionProof(-1, 3, SOME_HASH, [])).toThrow();
    expect(() => rootFromInclusionProof(0, 2 ** 53, SOME_HASH, [])).toThrow();
  });
});

describe("against the naive RFC 9162 reference, all sizes up to 70", () => {
  const N = 70;
  const data = Array.from({ length: N }, (_, i) => leafDataFor(i));
  const roots = Array.from({ length: N + 1 }, (_, n) => refMth(data.slice(0, n)));

  it("leafHash matches the reference leaf hash", () => {
    for (const d of data) expect(leafHash(d)).toEqual(refLeafHash(d));
  });

  it("accepts every reference inclusion proof and rejects it at any other index or size", () => {
    for (let n = 1; n <= N; n++) {
      const tree = data.slice(0, n);
      for (let i = 0; i < n; i++) {
        const proof = refPath(i, tree);
        const leaf = leafHash(data[i]!);
        expect(verifyInclusion(i, n, leaf, proof, roots[n]!), `PATH(${i}, ${n})`).toBe(true);
        if (i + 1 < n) expect(verifyInclusion(i + 1, n, leaf, proof, roots[n]!)).toBe(false);
        if (i > 0) expect(verifyInclusion(i - 1, n, leaf, proof, roots[n]!)).toBe(false);
        if (n < N) expect(verifyInclusion(i, n + 1, leaf, proof, roots[n + 1]!)).toBe(false);
        if (i < n - 1) expect(verifyInclusion(i, n - 1, leaf, proof, roots[n - 1]!)).toBe(false);
      }
    }
  });

  it("accepts every reference consistency proof and rejects it for other sizes", () => {
    for (let n = 1; n <= N; n++) {
      const tree = data.slice(0, n);
      for (let m = 1; m <= n; m++) {
        const proof = refProof(m, tree);
        expect(verifyConsistency(m, n, proof, roots[m]!, roots[n]!), `PROOF(${m}, ${n})`).toBe(true);
        if (m < n) {
          expect(verifyConsistency(m + 1, n, proof, roots[m + 1]!, roots[n]!)).toBe(false);
          expect(verifyConsistency(m - 1, n, proof, roots[m - 1]!, roots[n]!)).toBe(false);
          if (n < N) expect(verifyConsistency(m, n + 1, proof, roots[m]!, roots[n + 1]!)).toBe(false);
          expect(verifyConsistency(m, n, proof, roots[m - 1]!, roots[n]!)).toBe(false);
        }
      }
    }
  });
});
