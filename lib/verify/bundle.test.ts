import { describe, expect, it } from "vitest";
import { verifyProofBundle, type BundleVerification } from "./bundle";
import { verifierKey } from "./checkpoint";
import { bytesToBase64, utf8Encode } from "./encoding";
import { jwkThumbprint } from "./keys";
import { ORIGIN, clone, makeBundle, makeKey, signBytes } from "./testing/fixtures";

const base = makeBundle({ treeSize: 11, index: 6 });
const logKey = base.logKey.publicKeyPem;

function verify(bundle: unknown, opts: Partial<Parameters<typeof verifyProofBundle>[1]> = {}): BundleVerification {
  return verifyProofBundle(bundle, { logPublicKey: logKey, ...opts });
}

function failure(result: BundleVerification) {
  if (result.ok) return { code: "ok", checks: result.checks.map((c) => `${c.name}:${c.ok}`) };
  return { code: result.code, checks: result.checks.map((c) => `${c.name}:${c.ok}`) };
}

/** A copy of the base bundle with `edit` applied. */
function edited(edit: (b: any) => void): any {
  const b = clone(base.bundle);
  edit(b);
  return b;
}

const PASSED_CP = "checkpoint_signature:true";
const PASSED_INC = "inclusion:true";
const PASSED_SIG = "attestation_signature:true";

describe("verifyProofBundle: valid bundles", () => {
  it("passes all four checks in order", () => {
    const r = verify(base.bundle);
    expect(r).toMatchObject({ ok: true, treeSize: 11, logIndex: 6, rootHash: base.bundle.signed_tree_head.root_hash });
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ["checkpoint_signature", true],
      ["inclusion", true],
      ["attestation_signature", true],
      ["key_validity", true],
    ]);
  });

  it("accepts the log key as raw bytes, PEM or note verifier key, and the bundle as object, text or bytes", () => {
    const text = JSON.stringify(base.bundle);
    expect(verify(base.bundle, { logPublicKey: base.logKey.publicKeyRaw }).ok).toBe(true);
    expect(verify(base.bundle, { logPublicKey: verifierKey(ORIGIN, base.logKey.publicKeyRaw) }).ok).toBe(true);
    expect(verify(text).ok).toBe(true);
    expect(verify(utf8Encode(text)).ok).toBe(true);
    expect(verify(base.bundle, { origin: ORIGIN }).ok).toBe(true);
  });

  it("works for every leaf of small trees, and for a key without expiry", () => {
    for (const [treeSize, index] of [
      [1, 0],
      [2, 1],
      [5, 0],
      [5, 4],
      [8, 7],
      [33, 32],
    ] as const) {
      const f = makeBundle({ treeSize, index, logKey: base.logKey });
      expect(verify(f.bundle).ok, `${index}/${treeSize}`).toBe(true);
    }
    expect(verify(makeBundle({ logKey: base.logKey, expiresAt: null }).bundle).ok).toBe(true);
  });
});

describe("verifyProofBundle: each check fails with its code, stopping at the first failure", () => {
  const cases: [string, () => BundleVerification, string, string[]][] = [
    [
      "wrong log key",
      () => verify(base.bundle, { logPublicKey: makeKey().publicKeyRaw }),
      "checkpoint_signature_invalid",
      ["checkpoint_signature:false"],
    ],
    ["pinned origin differs", () => verify(base.bundle, { origin: "other.test/log" }), "origin_mismatch", ["checkpoint_signature:false"]],
    [
      "verifier key of another origin",
      () => verify(base.bundle, { logPublicKey: verifierKey("other.test/log", base.logKey.publicKeyRaw) }),
      "origin_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "sth.origin",
      () => verify(edited((b) => (b.signed_tree_head.origin = "x.test/log"))),
      "origin_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "sth.tree_size",
      () => verify(edited((b) => (b.signed_tree_head.tree_size = 12))),
      "tree_head_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "sth.root_hash",
      () => verify(edited((b) => (b.signed_tree_head.root_hash = "00".repeat(32)))),
      "tree_head_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "sth.signature",
      () => verify(edited((b) => (b.signed_tree_head.signature = bytesToBase64(new Uint8Array(68))))),
      "tree_head_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "proof.tree_size",
      () => verify(edited((b) => (b.inclusion_proof.tree_size = 10))),
      "tree_head_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "proof.root_hash",
      () => verify(edited((b) => (b.inclusion_proof.root_hash = "00".repeat(32)))),
      "tree_head_mismatch",
      ["checkpoint_signature:false"],
    ],
    [
      "checkpoint text",
      () => verify(edited((b) => (b.signed_tree_head.checkpoint = b.signed_tree_head.checkpoint.replace("\n11\n", "\n12\n")))),
      "checkpoint_signature_invalid",
      ["checkpoint_signature:false"],
    ],
    [
      "log_index disagreement",
      () => verify(edited((b) => (b.inclusion_proof.log_index = 5))),
      "inclusion_proof_invalid",
      [PASSED_CP, "inclusion:false"],
    ],
    [
      "log_index moved",
      () => verify(edited((b) => (b.inclusion_proof.log_index = b.attestation.log_index = 5))),
      "inclusion_proof_invalid",
      [PASSED_CP, "inclusion:false"],
    ],
    [
      "log_index past the tree",
      () => verify(edited((b) => (b.inclusion_proof.log_index = b.attestation.log_index = 11))),
      "inclusion_proof_invalid",
      [PASSED_CP, "inclusion:false"],
    ],
    ["payload", () => verify(edited((b) => (b.attestation.payload.size += 1))), "inclusion_proof_invalid", [PASSED_CP, "inclusion:false"]],
    [
      "proof hash",
      () => verify(edited((b) => (b.inclusion_proof.hashes[0] = "00".repeat(32)))),
      "inclusion_proof_invalid",
      [PASSED_CP, "inclusion:false"],
    ],
    [
      "key.algorithm",
      () => verify(edited((b) => (b.key.algorithm = "ES256"))),
      "unsupported_algorithm",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "key.public_key garbage",
      () => verify(edited((b) => (b.key.public_key = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))),
      "malformed_public_key",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "key.kid",
      () => verify(edited((b) => (b.key.kid = b.key.kid.slice(1) + "A"))),
      "key_id_mismatch",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "another key with its own kid",
      () => {
        const other = makeKey();
        return verify(edited((b) => ((b.key.public_key = other.publicKeyPem), (b.key.kid = jwkThumbprint(other.publicKeyRaw)))));
      },
      "key_id_mismatch",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "issuer.id",
      () => verify(edited((b) => (b.issuer.id = "0190f5a0-0000-7000-8000-000000000002"))),
      "issuer_mismatch",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "key.issuer_id",
      () => verify(edited((b) => (b.key.issuer_id = "0190f5a0-0000-7000-8000-000000000002"))),
      "issuer_mismatch",
      [PASSED_CP, PASSED_INC, "attestation_signature:false"],
    ],
    [
      "key.not_before",
      () => verify(edited((b) => (b.key.not_before = "2025-03-04T05:06:07.090Z"))),
      "key_not_yet_valid",
      [PASSED_CP, PASSED_INC, PASSED_SIG, "key_validity:false"],
    ],
    [
      "key.expires_at",
      () => verify(edited((b) => (b.key.expires_at = "2025-03-04T05:06:07.088Z"))),
      "key_expired",
      [PASSED_CP, PASSED_INC, PASSED_SIG, "key_validity:false"],
    ],
    [
      "key.not_before invalid",
      () => verify(edited((b) => (b.key.not_before = "2025-02-30T00:00:00.000Z"))),
      "invalid_timestamp",
      [PASSED_CP, PASSED_INC, PASSED_SIG, "key_validity:false"],
    ],
    [
      "key.expires_at invalid",
      () => verify(edited((b) => (b.key.expires_at = "2026-01-01 00:00:00"))),
      "invalid_timestamp",
      [PASSED_CP, PASSED_INC, PASSED_SIG, "key_validity:false"],
    ],
  ];
  it.each(cases)("%s", (_, run, code, checks) => {
    expect(failure(run())).toEqual({ code, checks });
  });

  it("bad attestation signatures that were validly logged", () => {
    const other = makeKey();
    const forged = (beforeLogging: (a: any) => any) => failure(verify(makeBundle({ logKey: base.logKey, beforeLogging }).bundle));
    const failed = { code: "attestation_signature_invalid", checks: [PASSED_CP, PASSED_INC, "attestation_signature:false"] };
    expect(forged((a) => ({ ...a, payload: { ...a.payload, size: 1 } }))).toEqual(failed);
    expect(forged((a) => ({ ...a, signature: bytesToBase64(signBytes(other, utf8Encode("x"))) }))).toEqual(failed);
    expect(forged((a) => ({ ...a, signature: a.signature.slice(0, -2) }))).toEqual(failed);
    expect(forged((a) => ({ ...a, signature: "AAAA" }))).toEqual(failed);
    expect(forged((a) => ({ ...a, kid: "someone-else" }))).toEqual({ ...failed, code: "key_id_mismatch" });
    // created_at is signed: an attestation claiming a time inside the window but signed for another fails.
    expect(forged((a) => ({ ...a, created_at: "2025-06-01T00:00:00.000Z" }))).toEqual(failed);
    expect(failure(verify(makeBundle({ logKey: base.logKey, createdAt: "2025-03-04T05:06:07Z" }).bundle)).code).toBe("ok");
    expect(failure(verify(makeBundle({ logKey: base.logKey, createdAt: "2025-03-04" }).bundle))).toEqual({
      code: "invalid_timestamp",
      checks: [PASSED_CP, PASSED_INC, PASSED_SIG, "key_validity:false"],
    });
  });
});

describe("verifyProofBundle: malformed input", () => {
  const malformed: [string, unknown][] = [
    ["null", null],
    ["array", []],
    ["not JSON", "{"],
    ["missing attestation", edited((b) => delete b.attestation)],
    ["missing issuer", edited((b) => delete b.issuer)],
    ["payload array", edited((b) => (b.attestation.payload = []))],
    ["payload null", edited((b) => (b.attestation.payload = null))],
    ["log_index string", edited((b) => (b.attestation.log_index = "6"))],
    ["log_index negative", edited((b) => (b.inclusion_proof.log_index = -1))],
    ["log_index fractional", edited((b) => (b.inclusion_proof.log_index = 6.5))],
    ["tree_size unsafe", edited((b) => (b.signed_tree_head.tree_size = 2 ** 53))],
    ["uppercase hex", edited((b) => (b.inclusion_proof.hashes[0] = b.inclusion_proof.hashes[0].toUpperCase()))],
    ["short hash", edited((b) => (b.inclusion_proof.hashes[0] = "00"))],
    ["hash not a string", edited((b) => (b.inclusion_proof.hashes[0] = 0))],
    ["too many hashes", edited((b) => (b.inclusion_proof.hashes = Array(65).fill("00".repeat(32))))],
    ["huge id", edited((b) => (b.attestation.id = "x".repeat(300)))],
    ["empty kid", edited((b) => (b.key.kid = ""))],
    ["checkpoint missing", edited((b) => delete b.signed_tree_head.checkpoint)],
    ["issuer name number", edited((b) => (b.issuer.name = 5))],
  ];
  it.each(malformed)("%s → malformed_bundle with no checks run", (_, input) => {
    expect(failure(verify(input))).toEqual({ code: "malformed_bundle", checks: [] });
  });

  it("caps the size and survives hostile structures", () => {
    const big = edited((b) => (b.attestation.payload.blob = "x".repeat(1024 * 1024)));
    expect(failure(verify(big)).code).toBe("bundle_too_large");
    expect(failure(verify(JSON.stringify(big))).code).toBe("bundle_too_large");
    expect(failure(verify(base.bundle, { maxBytes: 1000 })).code).toBe("bundle_too_large");
    const cyclic = clone(base.bundle);
    cyclic.attestation.payload.self = cyclic;
    expect(failure(verify(cyclic)).code).toBe("malformed_bundle");
    let deep: any = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expect(failure(verify(edited((b) => (b.attestation.payload = deep)))).code).toBe("malformed_bundle");
    expect(failure(verify(edited((b) => (b.attestation.payload = { n: 10n }))))).toEqual({ code: "malformed_bundle", checks: [] });
  });

  it("reports an unusable pinned log key", () => {
    expect(failure(verify(base.bundle, { logPublicKey: new Uint8Array(31) })).code).toBe("invalid_log_key");
    expect(failure(verify(base.bundle, { logPublicKey: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" })).code).toBe(
      "invalid_log_key",
    );
    expect(failure(verify(base.bundle, { logPublicKey: "nonsense" })).code).toBe("invalid_log_key");
  });
});
