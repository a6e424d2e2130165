import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifierKey } from "./checkpoint";
import { verifyConsistencyProof } from "./consistency";
import { bytesToHex } from "./encoding";
import { ORIGIN, makeKey, signCheckpoint } from "./testing/fixtures";
import { leafDataFor, refMth, refProof } from "./testing/merkle-reference";

const N = 40;
const logKey = makeKey();
const data = Array.from({ length: N }, (_, i) => leafDataFor(i));
const roots = Array.from({ length: N + 1 }, (_, n) => refMth(data.slice(0, n)));
const checkpoints = roots.map((root, n) => signCheckpoint(logKey, ORIGIN, n, root));
const proofHex = (m: number, n: number) => refProof(m, data.slice(0, n)).map(bytesToHex);
const opts = { logPublicKey: logKey.publicKeyRaw };

function code(r: ReturnType<typeof verifyConsistencyProof>): string {
  return r.ok ? "ok" : r.code;
}

describe("verifyConsistencyProof", () => {
  it("accepts reference proofs between any two signed checkpoints", () => {
    // Every pair up to 20 (pure verifyConsistency is covered for all pairs up to 70 in merkle.test.ts).
    for (let n = 0; n <= 20; n++) {
      for (let m = 0; m <= n; m++) {
        const r = verifyConsistencyProof({ first: checkpoints[m]!, second: checkpoints[n]!, proof: proofHex(m, n) }, opts);
        expect(r.ok, `${m} → ${n}`).toBe(true);
        if (r.ok)
          expect(r).toEqual({
            ok: true,
            origin: ORIGIN,
            first: { treeSize: m, rootHash: bytesToHex(roots[m]!) },
            second: { treeSize: n, rootHash: bytesToHex(roots[n]!) },
          });
      }
    }
    const pinned = verifyConsistencyProof(
      { first: checkpoints[3]!, second: checkpoints[9]!, proof: proofHex(3, 9) },
      { logPublicKey: verifierKey(ORIGIN, logKey.publicKeyRaw) },
    );
    expect(pinned.ok).toBe(true);
  });

  it("rejects bad keys, origins, order and malformed proofs", () => {
    const input = { first: checkpoints[5]!, second: checkpoints[13]!, proof: proofHex(5, 13) };
    expect(code(verifyConsistencyProof(input, { logPublicKey: makeKey().publicKeyRaw }))).toBe("checkpoint_signature_invalid");
    expect(code(verifyConsistencyProof(input, { ...opts, origin: "other.test/log" }))).toBe("origin_mismatch");
    const foreign = signCheckpoint(logKey, "other.test/log", 13, roots[13]!);
    expect(code(verifyConsistencyProof({ ...input, second: foreign }, opts))).toBe("origin_mismatch");
    expect(code(verifyConsistencyProof({ first: checkpoints[13]!, second: checkpoints[5]!, proof: input.proof }, opts))).toBe(
      "consistency_proof_invalid",
    );
    expect(code(verifyConsistencyProof({ ...input, proof: [...input.proof.slice(1)] }, opts))).toBe("consistency_proof_invalid");
    expect(code(verifyConsistencyProof({ ...input, proof: input.proof.map((h) => h.toUpperCase()) }, opts))).toBe("malformed_bundle");
    expect(code(verifyConsistencyProof({ ...input, proof: Array(65).fill("00".repeat(32)) }, opts))).toBe("malformed_bundle");
    expect(code(verifyConsistencyProof({ ...input, proof: "nope" as never }, opts))).toBe("malformed_bundle");
    expect(code(verifyConsistencyProof(null as never, opts))).toBe("malformed_bundle");
    expect(code(verifyConsistencyProof({ ...input, first: "garbage" }, opts))).toBe("malformed_checkpoint");
    expect(code(verifyConsistencyProof(input, { logPublicKey: "garbage" }))).toBe("invalid_log_key");
    // A fork: a validly signed checkpoint of a different tree of the same size.
    const forked = signCheckpoint(logKey, ORIGIN, 13, refMth([...data.slice(0, 12), new Uint8Array([1])]));
    expect(code(verifyConsistencyProof({ ...input, second: forked }, opts))).toBe("consistency_proof_invalid");
  });

  it("rejects any tampering with a non-trivial proof", () => {
    const pairs = fc.integer({ min: 2, max: N }).chain((n) => fc.tuple(fc.integer({ min: 1, max: n - 1 }), fc.constant(n)));
    const tamper = fc.oneof(
      fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat({ max: 255 }) }),
      fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), hash: fc.uint8Array({ minLength: 32, maxLength: 32 }) }),
      fc.record({ kind: fc.constant("size" as const), delta: fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0) }),
    );
    fc.assert(
      fc.property(pairs, tamper, ([m, n], t) => {
        let proof = proofHex(m, n);
        let first = checkpoints[m]!;
        if (t.kind === "flip") {
          const i = t.at % proof.length;
          const bytes = Buffer.from(proof[i]!, "hex");
          bytes[t.at % 32]! ^= t.bit || 1;
          proof = proof.map((h, k) => (k === i ? bytes.toString("hex") : h));
        } else if (t.kind === "drop") {
          proof = proof.filter((_, k) => k !== t.at % proof.length);
        } else if (t.kind === "insert") {
          const i = t.at % (proof.length + 1);
          proof = [...proof.slice(0, i), bytesToHex(t.hash), ...proof.slice(i)];
        } else {
          const m2 = m + t.delta;
          fc.pre(m2 >= 0 && m2 <= n && m2 !== m);
          first = checkpoints[m2]!;
        }
        expect(verifyConsistencyProof({ first, second: checkpoints[n]!, proof }, opts).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
