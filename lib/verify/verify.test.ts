// The composed verification: which checks run for each kind of evidence and trust, in what order,
// what stops it, and what each says. The checks themselves have their own tests; here bundles are
// the fixtures' (real keys, reference Merkle trees), cosignatures are testing/witnesses.ts's and
// time-stamps are OpenSSL's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestTsa } from "@/e2e/tsa/test-tsa";
import { leafData } from "./attestation";
import { verifierKey } from "./checkpoint";
import { bytesToBase64, hexToBytes, utf8Encode } from "./encoding";
import { parsePolicy } from "./policy";
import { ORIGIN, clone, makeBundle, makeKey } from "./testing/fixtures";
import { edWitness } from "./testing/witnesses";
import { formatTlogProof } from "./tlog-proof";
import { type Step, type Trust, verify } from "./verify";

const base = makeBundle({ treeSize: 7, index: 4, payload: { content_hash: `sha256:${"ab".repeat(32)}`, protection_id: "p-1" } });
const vkey = verifierKey(ORIGIN, base.logKey.publicKeyRaw);
const pinned: Trust = { logPublicKey: vkey };
const [w1, w2] = [edWitness("w1.example"), edWitness("w2.example")];
const policyText = (quorum: string) => `log ${vkey}\nwitness w1 ${w1.vkey}\nwitness w2 ${w2.vkey}\nquorum ${quorum}\n`;
const body = base.bundle.signed_tree_head.checkpoint.split("\n\n")[0]! + "\n";
/** The base bundle with its checkpoint cosigned by w1. */
const cosigned = (() => {
  const b = clone(base.bundle);
  b.signed_tree_head.checkpoint += w1.cosign(body, 1_700_000_000);
  return b;
})();

const summary = (steps: Step[]) => steps.map((s) => `${s.name}:${s.state}${s.state === "fail" ? `:${s.code}` : ""}`);
const page = { protectionId: "p-1", contentHash: "ab".repeat(32), attestationId: base.bundle.attestation.id };

describe("verify: a proof bundle", () => {
  it("runs the bundle's four checks under a pinned key, and nothing the trust does not ask for", async () => {
    const v = await verify({ kind: "bundle", bundle: base.bundle }, pinned);
    expect(v.ok).toBe(true);
    expect(summary(v.steps)).toEqual(["checkpoint_signature:pass", "inclusion:pass", "attestation_signature:pass", "key_validity:pass"]);
    expect(v.entry).toEqual({ logIndex: 4, treeSize: 7, rootHash: base.bundle.signed_tree_head.root_hash });
    expect(v.failure).toBeUndefined();
    expect(v.sealed).toBe(false);
  });

  it("takes the log key from the policy when none is pinned, and checks the witnesses' quorum", async () => {
    const v = await verify({ kind: "bundle", bundle: cosigned }, { policy: parsePolicy(policyText("w1")) });
    expect(v.ok).toBe(true);
    expect(summary(v.steps).at(-1)).toBe("witnesses:pass");
    expect(v.steps.at(-1)!.detail).toMatch(/^cosigned by w1 \(w1\.example, 2023-11-14T22:13:20Z\); quorum w1 met$/);
    expect(v.witnesses).toMatchObject({ rule: "w1", met: true, cosigners: [{ witness: "w1", timestamp: 1_700_000_000 }] });
  });

  it("fails on an unmet quorum with its code, after every bundle check passed", async () => {
    const v = await verify({ kind: "bundle", bundle: cosigned }, { ...pinned, policy: parsePolicy(policyText("w2")) });
    expect(v.ok).toBe(false);
    expect(summary(v.steps).slice(-2)).toEqual(["key_validity:pass", "witnesses:fail:quorum_not_met"]);
    expect(v.failure).toEqual({ code: "quorum_not_met", reason: expect.stringMatching(/^cosigned by w1 .*; the policy requires w2$/) });
  });

  it("says a policy without witnesses checks none, and passes", async () => {
    const v = await verify({ kind: "bundle", bundle: base.bundle }, { ...pinned, policy: parsePolicy(`log ${vkey}\nquorum none\n`) });
    expect(v.ok).toBe(true);
    expect(v.steps.at(-1)).toMatchObject({ name: "witnesses", state: "skipped", why: "no_witnesses" });
  });

  it("refuses an origin the policy has no key for, before any check", async () => {
    const other = verifierKey("other.example/log", makeKey().publicKeyRaw);
    const v = await verify({ kind: "bundle", bundle: base.bundle }, { policy: parsePolicy(`log ${other}\nquorum none\n`) });
    expect(summary(v.steps)).toEqual(["checkpoint_signature:fail:unknown_log"]);
  });

  it("stops at the first failing check: nothing after it runs, the witnesses included", async () => {
    const b = clone(cosigned);
    b.inclusion_proof.hashes[0] = "00".repeat(32);
    const v = await verify({ kind: "bundle", bundle: b }, { ...pinned, policy: parsePolicy(policyText("w1")) });
    expect(summary(v.steps)).toEqual(["checkpoint_signature:pass", "inclusion:fail:inclusion_proof_invalid"]);
    expect(v.failure?.code).toBe("inclusion_proof_invalid");
    expect(v.entry).toBeUndefined();
  });

  it("reports a bundle it cannot read as the evidence's failure", async () => {
    const v = await verify({ kind: "bundle", bundle: "{not json" }, pinned);
    expect(summary(v.steps)).toEqual(["evidence:fail:malformed_bundle"]);
    expect(v.ok).toBe(false);
  });

  it("runs a sealed entry's seal checks and says it is sealed", async () => {
    const sealing = makeKey();
    const sealed = makeBundle({ logKey: base.logKey, sealedBy: sealing });
    const v = await verify({ kind: "bundle", bundle: sealed.bundle }, pinned);
    expect(v.ok).toBe(true);
    expect(v.sealed).toBe(true);
    expect(summary(v.steps)).toEqual([
      "checkpoint_signature:pass",
      "seal_opening:pass",
      "inclusion:pass",
      "seal_signature:pass",
      "attestation_signature:pass",
      "key_validity:pass",
    ]);
    expect(v.kind).toBe("opened");
  });

  it("verifies a sealed leaf alone, as a bundle or a tlog-proof, and says its content is its owner's", async () => {
    const sealed = makeBundle({ logKey: base.logKey, sealedBy: makeKey() }).bundle;
    const alone = clone(sealed);
    alone.attestation = { ...sealed.seal.leaf, status: "VALID", log_index: sealed.attestation.log_index };
    alone.issuer = sealed.seal.issuer;
    alone.key = sealed.seal.key;
    delete alone.seal;
    const v = await verify({ kind: "bundle", bundle: alone }, pinned);
    expect(v.ok).toBe(true);
    expect(v.sealed).toBe(false);
    expect(v.kind).toBe("sealed");
    expect(summary(v.steps)).toEqual([
      "checkpoint_signature:pass",
      "inclusion:pass",
      "attestation_signature:pass",
      "key_validity:pass",
      "sealed_entry:skipped",
    ]);
    expect(v.steps.at(-1)).toMatchObject({ why: "sealed", detail: expect.stringContaining("whose content is its owner's") });
    const proof = formatTlogProof({
      extra: leafData(sealed.seal.leaf),
      index: sealed.inclusion_proof.log_index,
      proof: sealed.inclusion_proof.hashes.map(hexToBytes),
      checkpoint: sealed.signed_tree_head.checkpoint,
    });
    const t = await verify({ kind: "tlog-proof", text: proof }, pinned);
    expect(t.ok).toBe(true);
    expect(t.kind).toBe("sealed");
    expect(summary(t.steps)).toEqual(["checkpoint_signature:pass", "inclusion:pass", "sealed_entry:skipped"]);
    // The open entry's proof says nothing of the kind.
    const open = await verify({ kind: "bundle", bundle: base.bundle }, pinned);
    expect(open.kind).toBe("open");
    expect(open.steps.some((x) => x.name === "sealed_entry")).toBe(false);
  });
});

describe("verify: a bundle against the page that shows it", () => {
  it("passes when the bundle is about the page's protection, hash and attestation", async () => {
    const v = await verify({ kind: "bundle", bundle: base.bundle, page }, pinned);
    expect(v.ok).toBe(true);
    expect(summary(v.steps).at(-1)).toBe("page_match:pass");
  });

  it("fails a valid bundle of another protection, naming what differs, and checks no witness after it", async () => {
    const other = { ...page, protectionId: "p-2", contentHash: "cd".repeat(32) };
    const v = await verify({ kind: "bundle", bundle: cosigned, page: other }, { ...pinned, policy: parsePolicy(policyText("w1")) });
    expect(summary(v.steps).slice(-1)).toEqual(["page_match:fail:page_mismatch"]);
    expect(v.failure?.reason).toContain("it is for protection p-1, not p-2");
    expect(v.failure?.reason).toContain(`not sha256:${"cd".repeat(32)}`);
  });
});

describe("verify: a bundle's RFC 3161 time-stamp", () => {
  let tsa: TestTsa;
  let stamped: typeof base.bundle & { timestamp?: unknown };
  beforeAll(() => {
    tsa = new TestTsa();
    const checkpoint = base.bundle.signed_tree_head.checkpoint;
    const { tree_size, root_hash, hashes } = base.bundle.inclusion_proof;
    stamped = {
      ...clone(base.bundle),
      timestamp: {
        checkpoint,
        token: bytesToBase64(tsa.tokenOver(utf8Encode(checkpoint))),
        inclusion_proof: { tree_size, root_hash, hashes },
      },
    };
  });
  afterAll(() => tsa.close());

  it("passes a token by the pinned TSA over a checkpoint that holds the entry, and says when", async () => {
    const v = await verify({ kind: "bundle", bundle: stamped }, { ...pinned, tsaPem: tsa.rootPem, requireTimestamp: true });
    expect(v.ok).toBe(true);
    expect(summary(v.steps).at(-1)).toBe("timestamp:pass");
    expect(v.timestamp).toMatchObject({ tsa: "Hallmark Test TSA", treeSize: 7 });
    expect(Math.abs(v.timestamp!.existedBy.getTime() - Date.now())).toBeLessThan(10 * 60_000);
  });

  it("fails a token of another TSA than the pinned one", async () => {
    const other = new TestTsa({ name: "Other TSA" });
    try {
      const v = await verify({ kind: "bundle", bundle: stamped }, { ...pinned, tsaPem: other.rootPem });
      expect(summary(v.steps).at(-1)).toBe("timestamp:fail:timestamp_invalid");
    } finally {
      await other.close();
    }
  });

  it("without a TSA, says a token is there unchecked; with one, a missing token fails only when required", async () => {
    const unchecked = await verify({ kind: "bundle", bundle: stamped }, pinned);
    expect(unchecked.ok).toBe(true);
    expect(unchecked.steps.at(-1)).toMatchObject({ name: "timestamp", state: "skipped", why: "no_tsa" });
    const none = await verify({ kind: "bundle", bundle: base.bundle }, pinned);
    expect(none.steps.some((s) => s.name === "timestamp")).toBe(false);
    const notYet = await verify({ kind: "bundle", bundle: base.bundle }, { ...pinned, tsaPem: tsa.rootPem });
    expect(notYet.ok).toBe(true);
    expect(notYet.steps.at(-1)).toMatchObject({ name: "timestamp", state: "skipped", why: "not_time_stamped" });
    const required = await verify({ kind: "bundle", bundle: base.bundle }, { ...pinned, tsaPem: tsa.rootPem, requireTimestamp: true });
    expect(summary(required.steps).at(-1)).toBe("timestamp:fail:timestamp_missing");
  });
});

/** The base bundle's entry as a tlog-proof (the leaf data in `extra`). */
function tlogProofOf(b: typeof base.bundle, index = b.inclusion_proof.log_index): string {
  const { status: _s, log_index: _i, ...signed } = b.attestation as typeof b.attestation & { status: string; log_index: number };
  return formatTlogProof({
    extra: leafData(signed as never),
    index,
    proof: b.inclusion_proof.hashes.map(hexToBytes),
    checkpoint: b.signed_tree_head.checkpoint,
  });
}

describe("verify: a tlog-proof", () => {
  it("checks the checkpoint, the witnesses under a policy, then the inclusion", async () => {
    const text = tlogProofOf(cosigned);
    const keyOnly = await verify({ kind: "tlog-proof", text }, pinned);
    expect(summary(keyOnly.steps)).toEqual(["checkpoint_signature:pass", "inclusion:pass"]);
    expect(keyOnly.tlogProof?.attestation.id).toBe(base.bundle.attestation.id);
    const withPolicy = await verify({ kind: "tlog-proof", text }, { policy: parsePolicy(policyText("w1")) });
    expect(summary(withPolicy.steps)).toEqual(["checkpoint_signature:pass", "witnesses:pass", "inclusion:pass"]);
  });

  it("reports each failure at its check", async () => {
    const unmet = await verify({ kind: "tlog-proof", text: tlogProofOf(cosigned) }, { policy: parsePolicy(policyText("w2")) });
    expect(summary(unmet.steps)).toEqual(["checkpoint_signature:pass", "witnesses:fail:quorum_not_met"]);
    const moved = await verify({ kind: "tlog-proof", text: tlogProofOf(base.bundle, 3) }, pinned);
    expect(summary(moved.steps)).toEqual(["checkpoint_signature:pass", "inclusion:fail:inclusion_proof_invalid"]);
    const wrongKey = await verify({ kind: "tlog-proof", text: tlogProofOf(base.bundle) }, { logPublicKey: makeKey().publicKeyRaw });
    expect(summary(wrongKey.steps)).toEqual(["checkpoint_signature:fail:checkpoint_signature_invalid"]);
    const garbage = await verify({ kind: "tlog-proof", text: "not a proof" }, pinned);
    expect(summary(garbage.steps)).toEqual(["evidence:fail:malformed_tlog_proof"]);
  });
});

describe("verify: a certificate's attachments and page", () => {
  const hash = "ab".repeat(32);
  const text = `Certificate of protection SHA-256 ${hash} Logged as entry 4 of 7`;
  const attachments = (b: object = base.bundle, proof: string | null = tlogProofOf(base.bundle)) =>
    new Map<string, Uint8Array>([
      ["proof-bundle.json", utf8Encode(JSON.stringify(b))],
      ...(proof ? ([["entry.tlog-proof", utf8Encode(proof)]] as const) : []),
    ]);

  it("verifies both attachments, then holds the page's hash and entry to them", async () => {
    const v = await verify({ kind: "certificate", attachments: attachments(), text }, pinned);
    expect(v.ok).toBe(true);
    expect(v.steps.map((s) => `${s.part}:${s.name}`)).toEqual([
      "proof-bundle.json:checkpoint_signature",
      "proof-bundle.json:inclusion",
      "proof-bundle.json:attestation_signature",
      "proof-bundle.json:key_validity",
      "entry.tlog-proof:checkpoint_signature",
      "entry.tlog-proof:inclusion",
      "certificate:certificate_text",
    ]);
  });

  it("fails a page that does not state the proven hash and entry, or shows a hash nothing proves", async () => {
    const wrongEntry = await verify({ kind: "certificate", attachments: attachments(), text: text.replace("entry 4", "entry 5") }, pinned);
    expect(summary(wrongEntry.steps).at(-1)).toBe("certificate_text:fail:certificate_mismatch");
    const stranger = "cd".repeat(32);
    const extra = await verify({ kind: "certificate", attachments: attachments(), text: `${text} Root ${stranger}` }, pinned);
    expect(extra.failure?.reason).toBe(`the page shows the hash ${stranger}, which its attachments do not prove`);
  });

  it("fails a tlog-proof of another attestation than the bundle, and a PDF without its bundle", async () => {
    const mixed = await verify({ kind: "certificate", attachments: attachments(base.bundle, tlogProofOf(otherSigned())), text }, pinned);
    expect(summary(mixed.steps).at(-1)).toBe("certificate_match:fail:certificate_mismatch");
    const empty = await verify({ kind: "certificate", attachments: new Map(), text }, pinned);
    expect(summary(empty.steps)).toEqual(["evidence:fail:malformed_certificate"]);
  });
});

/** A bundle of another attestation, logged under the same key (the tlog-proof does not check its issuer's signature). */
function otherSigned() {
  const id = "0190f5a0-1111-7000-8000-00000000ffff";
  return makeBundle({ logKey: base.logKey, treeSize: 7, index: 4, beforeLogging: (a) => ({ ...a, id }) }).bundle;
}
