import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyProofBundle } from "./bundle";
import { base64ToBytes, bytesToBase64 } from "./encoding";
import { clone, makeBundle, makeKey, type BundleFixture } from "./testing/fixtures";

// Property: a real bundle (real Ed25519 keys, real tree) verifies; ANY tampering with what it
// proves — a leaf field, a proof hash, the index, the tree size, a signature, the checkpoint
// text — makes verification fail.

const logKey = makeKey();
const issuerKey = makeKey();
const fixtures = new Map<string, BundleFixture>();
function fixture(treeSize: number, index: number): BundleFixture {
  const key = `${treeSize}/${index}`;
  if (!fixtures.has(key)) fixtures.set(key, makeBundle({ treeSize, index, logKey, issuerKey }));
  return fixtures.get(key)!;
}

const treeAndIndex = fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.constant(n), fc.nat({ max: n - 1 })));

type Bundle = Record<string, any>;
/** A tampering: its name and a function that edits a bundle in place (given random inputs). */
type Tamper = [string, (b: Bundle, r: { n: number; text: string; bytes: Uint8Array }) => void];

function flipHexChar(hex: string, at: number): string {
  const i = at % hex.length;
  const c = hex[i] === "0" ? "1" : "0";
  return hex.slice(0, i) + c + hex.slice(i + 1);
}

function changeChar(s: string, at: number, text: string): string {
  const i = at % s.length;
  const replacement = text.length > 0 && text !== s[i] ? text : s[i] === "A" ? "B" : "A";
  return s.slice(0, i) + replacement + s.slice(i + 1);
}

const tampers: Tamper[] = [
  ["payload value", (b, r) => (b.attestation.payload.file_name = b.attestation.payload.file_name + (r.text || "x"))],
  ["payload new key", (b, r) => (b.attestation.payload["k" + r.text] = r.n)],
  ["payload removed key", (b) => delete b.attestation.payload.size],
  [
    "created_at",
    (b, r) => (b.attestation.created_at = new Date(Date.parse(b.attestation.created_at) + 1 + (r.n % 1_000_000)).toISOString()),
  ],
  ["id", (b, r) => (b.attestation.id = changeChar(b.attestation.id, r.n, r.text))],
  ["issuer_id everywhere", (b, r) => (b.attestation.issuer_id = b.key.issuer_id = b.issuer.id = changeChar(b.issuer.id, r.n, r.text))],
  ["kid", (b, r) => (b.attestation.kid = changeChar(b.attestation.kid, r.n, r.text))],
  [
    "attestation signature bytes",
    (b, r) => {
      const sig = base64ToBytes(b.attestation.signature);
      sig[r.n % 64]! ^= 1 << (r.n % 8);
      b.attestation.signature = bytesToBase64(sig);
    },
  ],
  ["attestation signature text", (b, r) => (b.attestation.signature = changeChar(b.attestation.signature, r.n, r.text))],
  [
    "proof hash",
    (b, r) => {
      const h = b.inclusion_proof.hashes;
      if (h.length === 0) h.push(b.inclusion_proof.root_hash);
      else h[r.n % h.length] = flipHexChar(h[r.n % h.length], r.n);
    },
  ],
  ["proof hash appended", (b) => b.inclusion_proof.hashes.push(b.inclusion_proof.root_hash)],
  [
    "proof hash dropped",
    (b) => (b.inclusion_proof.hashes.length > 0 ? b.inclusion_proof.hashes.pop() : b.inclusion_proof.hashes.push("00".repeat(32))),
  ],
  [
    "proof hashes reordered",
    (b) => (b.inclusion_proof.hashes.length > 1 ? b.inclusion_proof.hashes.reverse() : b.inclusion_proof.hashes.push("11".repeat(32))),
  ],
  [
    "log index (both)",
    (b, r) => {
      const size = b.inclusion_proof.tree_size;
      const other = size === 1 ? 1 : (b.attestation.log_index + 1 + (r.n % (size - 1))) % size;
      b.attestation.log_index = b.inclusion_proof.log_index = other;
    },
  ],
  ["log index (attestation)", (b, r) => (b.attestation.log_index += 1 + (r.n % 5))],
  [
    "tree size (json)",
    (b, r) => (b.signed_tree_head.tree_size = b.inclusion_proof.tree_size = b.inclusion_proof.tree_size + 1 + (r.n % 5)),
  ],
  [
    "root hash (json)",
    (b, r) => (b.signed_tree_head.root_hash = b.inclusion_proof.root_hash = flipHexChar(b.inclusion_proof.root_hash, r.n)),
  ],
  ["sth signature", (b, r) => (b.signed_tree_head.signature = changeChar(b.signed_tree_head.signature, r.n, r.text))],
  ["checkpoint text", (b, r) => (b.signed_tree_head.checkpoint = changeChar(b.signed_tree_head.checkpoint, r.n, r.text))],
  [
    "checkpoint re-signed by another key",
    (b) => {
      const other = makeBundle({ treeSize: b.inclusion_proof.tree_size, index: b.attestation.log_index, issuerKey });
      b.signed_tree_head = other.bundle.signed_tree_head;
    },
  ],
  ["key swapped", (b) => (b.key.public_key = makeKey().publicKeyPem)],
];

describe("verifyProofBundle properties", () => {
  it("accepts every untampered bundle", () => {
    fc.assert(
      fc.property(treeAndIndex, ([n, i]) => {
        const r = verifyProofBundle(fixture(n, i).bundle, { logPublicKey: logKey.publicKeyRaw });
        expect(r.ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("rejects every tampered bundle", () => {
    fc.assert(
      fc.property(
        treeAndIndex,
        fc.constantFrom(...tampers),
        fc.nat(),
        fc.string({ maxLength: 3 }),
        fc.uint8Array({ minLength: 1, maxLength: 8 }),
        ([n, i], [name, tamper], rn, text, bytes) => {
          const bundle = clone(fixture(n, i).bundle);
          const before = JSON.stringify(bundle);
          tamper(bundle, { n: rn, text, bytes });
          fc.pre(JSON.stringify(bundle) !== before);
          const r = verifyProofBundle(bundle, { logPublicKey: logKey.publicKeyRaw });
          expect(r.ok, name).toBe(false);
          if (!r.ok) {
            expect(r.checks.filter((c) => !c.ok).length).toBeLessThanOrEqual(1);
            expect(r.checks.every((c, k) => c.ok || k === r.checks.length - 1)).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
