// The verifier against what a real server produced (testing/vectors, see its README), and
// tampered copies of it that must fail.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  parsePolicy,
  parsePublicKeyPem,
  verifyCheckpoint,
  verifyConsistencyProof,
  verifyProofBundle,
  verifyWitnessedCheckpoint,
} from "./index";
import { canonicalJson } from "./jcs";
import { verifyTlogProof } from "./tlog-proof";
import { SEALED_CHECKS } from "./bundle";
import { utf8Decode } from "./encoding";
import { decodeEntryBundle } from "./tiles";

const dir = path.join(__dirname, "testing", "vectors");
const read = (f: string) => fs.readFileSync(path.join(dir, f), "utf8");
const log = JSON.parse(read("log.json")) as { origin: string; verifier_key: string; public_key: string };
const policy = parsePolicy(read("policy.txt"));
const bundle = JSON.parse(read("bundle.json"));
const consistency = JSON.parse(read("consistency.json"));
const checkpoint = read("checkpoint.txt");
const tlogProof = read("proof.tlog-proof");

const flipHex = (hex: string) => (hex[0] === "0" ? "1" : "0") + hex.slice(1);
const flipB64 = (b64: string, at: number) => {
  const b = Buffer.from(b64, "base64");
  b[at]! ^= 1;
  return b.toString("base64");
};
const codeOf = (f: () => unknown) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as { code?: string }).code ?? (e as Error).message;
  }
};

describe("golden vectors from a running server", () => {
  it("the policy pins the log's key and the witness; the checkpoint meets its quorum", () => {
    expect(policy.logs.map((l) => l.vkey)).toEqual([log.verifier_key]);
    expect(verifyCheckpoint(checkpoint, { publicKey: parsePublicKeyPem(log.public_key), origin: log.origin }).treeSize).toBe(8);
    const w = verifyWitnessedCheckpoint(checkpoint, policy);
    expect(w.quorum.met).toBe(true);
    expect(w.cosigners.map((c) => c.witness)).toEqual(["w1"]);
  });

  it("the proof bundle verifies (and under the policy), and a tampered copy does not", () => {
    const ok = verifyProofBundle(bundle, { logPublicKey: log.verifier_key });
    expect(ok).toMatchObject({ ok: true, treeSize: 8, logIndex: 5 });
    expect(verifyWitnessedCheckpoint(bundle.signed_tree_head.checkpoint, policy).quorum.met).toBe(true);
    const bad = structuredClone(bundle);
    bad.inclusion_proof.hashes[1] = flipHex(bad.inclusion_proof.hashes[1]);
    expect(verifyProofBundle(bad, { logPublicKey: log.verifier_key })).toMatchObject({ ok: false, code: "inclusion_proof_invalid" });
    const forged = structuredClone(bundle);
    forged.attestation.payload.content_hash = forged.attestation.payload.content_hash.replace(/.$/, (c: string) => (c === "0" ? "1" : "0"));
    expect(verifyProofBundle(forged, { logPublicKey: log.verifier_key }).ok).toBe(false);
  });

  it("the consistency proof verifies, and a tampered copy does not", () => {
    const input = { first: consistency.first.checkpoint, second: consistency.second.checkpoint, proof: consistency.hashes };
    expect(verifyConsistencyProof(input, { logPublicKey: log.verifier_key })).toMatchObject({ ok: true });
    expect(
      verifyConsistencyProof({ ...input, proof: [flipHex(input.proof[0]), ...input.proof.slice(1)] }, { logPublicKey: log.verifier_key })
        .ok,
    ).toBe(false);
  });

  it("the tlog-proof verifies under the policy alone, and tampered copies do not", () => {
    expect(verifyTlogProof(tlogProof, { policy })).toMatchObject({
      index: 5,
      treeSize: 8,
      cosigners: [expect.objectContaining({ witness: "w1" })],
    });
    expect(codeOf(() => verifyTlogProof(tlogProof.replace("index 5", "index 4"), { policy }))).toBe("inclusion_proof_invalid");
    const lines = tlogProof.split("\n");
    const cosig = lines.findIndex((l) => l.startsWith("— witness.local/w1 "));
    const sig = lines[cosig]!.split(" ")[2]!;
    lines[cosig] = `— witness.local/w1 ${flipB64(sig, 20)}`;
    expect(codeOf(() => verifyTlogProof(lines.join("\n"), { policy }))).toBe("cosignature_invalid");
    const withoutWitness = tlogProof.replace(/^— witness\.local\/w1 .*\n/m, "");
    expect(codeOf(() => verifyTlogProof(withoutWitness, { policy }))).toBe("quorum_not_met");
    expect(codeOf(() => verifyTlogProof(tlogProof.replace(/\n8\n/, "\n9\n"), { policy }))).toBe("checkpoint_signature_invalid");
  });
});

describe("golden vectors of a sealed entry (a private protection), from a running server", () => {
  const sealedLog = JSON.parse(read("sealed-log.json")) as { verifier_key: string; public_key: string; origin: string };
  const sealedBundle = JSON.parse(read("sealed-bundle.json"));
  const sealedProof = read("sealed.tlog-proof");
  const checker = path.join(__dirname, "testing", "independent", "check_sealed.py");
  /** The independent check (Python's hashlib and json, and openssl): its verdict on a bundle. */
  const independently = (b: unknown) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-sealed-vector-")), "bundle.json");
    fs.writeFileSync(file, JSON.stringify(b));
    const r = spawnSync("python3", [checker, file], { encoding: "utf8" });
    return r.status === 0 ? "ok" : r.stdout.trim() || r.stderr.trim();
  };
  const tampered = (edit: (b: any) => void) => {
    const b = structuredClone(sealedBundle);
    edit(b);
    return b;
  };
  const cases: [string, any, string, string][] = [
    [
      "a salt with one bit flipped",
      tampered((b) => (b.seal.salt = flipB64(b.seal.salt, 7))),
      "seal_opening_invalid",
      "the opening does not give the sealed leaf's commitment",
    ],
    [
      "another content hash in the opened payload",
      tampered((b) => (b.attestation.payload.content_hash = `sha256:${flipHex(b.attestation.payload.content_hash.slice(7))}`)),
      "seal_opening_invalid",
      "the opening does not give the sealed leaf's commitment",
    ],
    [
      "a commitment changed in the sealed leaf",
      tampered((b) => (b.seal.leaf.payload.commitment = `sha256:${flipHex(b.seal.leaf.payload.commitment.slice(7))}`)),
      "seal_opening_invalid",
      "the opening does not give the sealed leaf's commitment",
    ],
    [
      "the sealed leaf's signature changed",
      tampered((b) => (b.seal.leaf.signature = flipB64(b.seal.leaf.signature, 3))),
      "inclusion_proof_invalid",
      "the sealed leaf is not at log_index in the tree",
    ],
  ];

  it("the bundle verifies with lib/verify and with the independent check", () => {
    expect(sealedBundle.seal.leaf.payload.type).toBe("hallmark.sealed/v1");
    const r = verifyProofBundle(sealedBundle, { logPublicKey: sealedLog.verifier_key });
    expect(r.ok && r.checks.map((c) => c.name)).toEqual(SEALED_CHECKS);
    expect(independently(sealedBundle)).toBe("ok");
  });

  for (const [what, b, code, independent] of cases) {
    it(`a bundle with ${what} fails both (${code})`, () => {
      expect(verifyProofBundle(b, { logPublicKey: sealedLog.verifier_key })).toMatchObject({ ok: false, code });
      expect(independently(b)).toBe(independent);
    });
  }

  it("the tlog-proof opens the sealed entry; a changed salt or payload in its extra line fails", () => {
    const key = parsePublicKeyPem(sealedLog.public_key);
    const r = verifyTlogProof(sealedProof, { logPublicKey: key, origin: sealedLog.origin });
    expect(r.sealed?.payload.type).toBe("hallmark.sealed/v1");
    expect(r.attestation.payload.content_hash).toBe(sealedBundle.attestation.payload.content_hash);
    const [, extraLine] = sealedProof.split("\n");
    const extra = JSON.parse(Buffer.from(extraLine!.slice(6), "base64").toString("utf8"));
    const withExtra = (e: unknown) => sealedProof.replace(extraLine!, `extra ${Buffer.from(canonicalJson(e)).toString("base64")}`);
    const salted = structuredClone(extra);
    salted.opening.salt = flipB64(salted.opening.salt, 0);
    expect(codeOf(() => verifyTlogProof(withExtra(salted), { logPublicKey: key }))).toBe("seal_opening_invalid");
    const rehashed = structuredClone(extra);
    rehashed.opening.attestation.payload.category = "code";
    expect(codeOf(() => verifyTlogProof(withExtra(rehashed), { logPublicKey: key }))).toBe("seal_opening_invalid");
    expect(codeOf(() => verifyTlogProof(withExtra(extra), { logPublicKey: key }))).toBe("ok");
  });
});

describe("golden vectors of a hallmark.sealed/v2 entry, from a running server", () => {
  const v2Log = JSON.parse(read("sealed-v2-log.json")) as { verifier_key: string; public_key: string; origin: string };
  const v2Policy = parsePolicy(read("sealed-v2-policy.txt"));
  const v2Bundle = JSON.parse(read("sealed-v2-bundle.json"));
  const v2Proof = read("sealed-v2.tlog-proof");
  const sealingKey = JSON.parse(read("sealed-v2-sealing-key.json"));
  const tile = new Uint8Array(fs.readFileSync(path.join(dir, "sealed-v2-entries.tile")));
  const checker = path.join(__dirname, "testing", "independent", "check_sealed.py");
  const independently = (b: unknown) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-sealed-v2-vector-")), "bundle.json");
    fs.writeFileSync(file, JSON.stringify(b));
    const r = spawnSync("python3", [checker, file], { encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : r.stdout.trim() || r.stderr.trim();
  };
  const tampered = (edit: (b: any) => void) => {
    const b = structuredClone(v2Bundle);
    edit(b);
    return b;
  };
  const index = v2Bundle.attestation.log_index as number;
  /** The sealed leaf as the log's entry bundle holds it, and a bundle a stranger makes of it with the sealing key. */
  const fromTile = JSON.parse(utf8Decode(decodeEntryBundle(tile, v2Bundle.signed_tree_head.tree_size)[index]!));
  const strangers = {
    attestation: { ...fromTile, status: "VALID", log_index: index },
    issuer: { id: sealingKey.issuer_id },
    key: sealingKey,
    inclusion_proof: v2Bundle.inclusion_proof,
    signed_tree_head: v2Bundle.signed_tree_head,
  };

  it("the owner's bundle verifies under the policy, with lib/verify and with the independent check", () => {
    const leaf = v2Bundle.seal.leaf;
    expect(leaf.payload.type).toBe("hallmark.sealed/v2");
    expect(leaf.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(leaf.id).not.toBe(v2Bundle.attestation.id);
    expect(leaf.created_at).toBe(`${v2Bundle.attestation.created_at.slice(0, 19)}.000Z`);
    const r = verifyProofBundle(v2Bundle, { logPublicKey: v2Log.verifier_key });
    expect(r.ok && r.checks.map((c) => c.name)).toEqual(SEALED_CHECKS);
    expect(r).toMatchObject({ kind: "opened" });
    expect(verifyWitnessedCheckpoint(v2Bundle.signed_tree_head.checkpoint, v2Policy).quorum.met).toBe(true);
    expect(independently(v2Bundle)).toBe("ok");
  });

  const cases: [string, (b: any) => void, string, string][] = [
    [
      "the attestation's own id on the sealed leaf",
      (b) => (b.seal.leaf.id = b.attestation.id),
      "seal_opening_invalid",
      "the v2 sealed leaf's id is not a random UUID of its own",
    ],
    [
      "the attestation's millisecond on the sealed leaf",
      (b) => (b.seal.leaf.created_at = b.attestation.created_at),
      "seal_opening_invalid",
      "the v2 sealed leaf's created_at is not the attestation's second",
    ],
    [
      "the v1 type on the leaf",
      (b) => (b.seal.leaf.payload.type = "hallmark.sealed/v1"),
      "seal_opening_invalid",
      "the opening does not give the sealed leaf's commitment",
    ],
    [
      "a salt with one bit flipped",
      (b) => (b.seal.salt = flipB64(b.seal.salt, 7)),
      "seal_opening_invalid",
      "the opening does not give the sealed leaf's commitment",
    ],
    [
      "the sealed leaf's signature changed",
      (b) => (b.seal.leaf.signature = flipB64(b.seal.leaf.signature, 3)),
      "inclusion_proof_invalid",
      "the sealed leaf is not at log_index in the tree",
    ],
  ];
  for (const [what, edit, code, independent] of cases) {
    it(`a bundle with ${what} fails both (${code})`, () => {
      const b = tampered(edit);
      expect(verifyProofBundle(b, { logPublicKey: v2Log.verifier_key })).toMatchObject({ ok: false, code });
      expect(independently(b)).toBe(independent);
    });
  }

  it("the tlog-proof opens the entry under the policy alone", () => {
    const r = verifyTlogProof(v2Proof, { policy: v2Policy });
    expect(r).toMatchObject({ kind: "opened", index, attestation: { id: v2Bundle.attestation.id } });
    expect(r.sealed).toEqual(v2Bundle.seal.leaf);
  });

  it("the log's tile holds the sealed leaf, which alone verifies as a sealed entry naming nothing, both ways", () => {
    expect(fromTile).toEqual(v2Bundle.seal.leaf);
    const text = JSON.stringify(fromTile);
    for (const secret of [v2Bundle.attestation.id, v2Bundle.attestation.created_at, v2Bundle.attestation.payload.content_hash])
      expect(text).not.toContain(secret);
    expect(verifyProofBundle(strangers, { logPublicKey: v2Log.verifier_key })).toMatchObject({ ok: true, kind: "sealed" });
    expect(independently(strangers)).toBe("ok sealed entry alone");
    const forged = structuredClone(strangers);
    forged.attestation.payload = { ...forged.attestation.payload, commitment: `sha256:${flipHex(fromTile.payload.commitment.slice(7))}` };
    expect(verifyProofBundle(forged, { logPublicKey: v2Log.verifier_key })).toMatchObject({ ok: false, code: "inclusion_proof_invalid" });
    expect(independently(forged)).toBe("the sealed leaf is not at log_index in the tree");
  });
});
