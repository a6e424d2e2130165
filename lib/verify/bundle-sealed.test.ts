// A sealed entry's proof bundle (lib/verify/sealed.ts): it verifies with its opening, and every
// tampered part fails with the check that names it.
import { describe, expect, it } from "vitest";
import { verifyProofBundle } from "./bundle";
import { bytesToBase64 } from "./encoding";
import { SEALED_V1, SEALED_V2 } from "./sealed";
import { clone, makeBundle, makeKey, SEALED_LEAF_ID } from "./testing/fixtures";

const sealer = makeKey();
for (const sealType of [SEALED_V2, SEALED_V1] as const) describe(`a ${sealType} entry`, () => sealedBundleCases(sealType));

function sealedBundleCases(sealType: typeof SEALED_V1 | typeof SEALED_V2) {
  const { bundle, logKey } = makeBundle({ treeSize: 9, index: 3, sealedBy: sealer, sealType });
  const verify = (b: unknown) => verifyProofBundle(b, { logPublicKey: logKey.publicKeyPem });
  const edited = (edit: (b: any) => void) => {
    const b = clone(bundle);
    edit(b);
    return b;
  };
  const outcome = (b: unknown) => {
    const r = verify(b);
    return { code: r.ok ? "ok" : r.code, checks: r.checks.map((c) => `${c.name}:${c.ok}`) };
  };
  const flipLast = (s: string) => s.replace(/.$/, (c) => (c === "0" ? "1" : "0"));

  describe("verifyProofBundle: a sealed entry", () => {
    it("passes the checkpoint, the opening, the sealed leaf's inclusion and both signatures", () => {
      expect(bundle.seal.leaf.id).toBe(sealType === SEALED_V2 ? SEALED_LEAF_ID : bundle.attestation.id);
      expect(verify(bundle)).toMatchObject({ ok: true, kind: "opened" });
      expect(outcome(bundle)).toEqual({
        code: "ok",
        checks: [
          "checkpoint_signature:true",
          "seal_opening:true",
          "inclusion:true",
          "seal_signature:true",
          "attestation_signature:true",
          "key_validity:true",
        ],
      });
    });

    it("fails the opening with a wrong salt, payload or attestation signature", () => {
      const salt = Buffer.from(bundle.seal.salt, "base64");
      salt[0]! ^= 1;
      expect(outcome(edited((b) => (b.seal.salt = salt.toString("base64")))).code).toBe("seal_opening_invalid");
      expect(outcome(edited((b) => (b.attestation.payload.content_hash = flipLast(b.attestation.payload.content_hash)))).code).toBe(
        "seal_opening_invalid",
      );
      expect(outcome(edited((b) => (b.attestation.signature = bytesToBase64(new Uint8Array(64))))).code).toBe("seal_opening_invalid");
      expect(outcome(edited((b) => (b.attestation.created_at = "2025-03-04T05:06:07.090Z"))).code).toBe("seal_opening_invalid");
    });

    it("fails the inclusion when the sealed leaf's commitment is changed together with the salt's opening", () => {
      // A forger who rewrites the commitment to fit another attestation changes the leaf the log holds.
      const forged = edited((b) => {
        b.seal.leaf.payload.commitment = flipLast(b.seal.leaf.payload.commitment);
      });
      expect(outcome(forged).code).toBe("seal_opening_invalid");
      const rehashed = makeBundle({
        treeSize: 9,
        index: 3,
        sealedBy: sealer,
        sealType,
        payload: { content_hash: `sha256:${"cd".repeat(32)}` },
      });
      const swapped = edited((b) => {
        b.attestation = rehashed.bundle.attestation;
        b.seal.leaf = rehashed.bundle.seal.leaf;
      });
      expect(outcome(swapped)).toMatchObject({ code: "inclusion_proof_invalid" });
    });

    it("fails the seal's signature under another key, and refuses a seal key that is not its kid's", () => {
      const other = makeKey();
      expect(outcome(edited((b) => (b.seal.key.public_key = other.publicKeyPem))).code).toBe("key_id_mismatch");
      expect(outcome(edited((b) => (b.seal.leaf.signature = bytesToBase64(new Uint8Array(64))))).code).toBe("inclusion_proof_invalid");
      expect(outcome(edited((b) => (b.seal.issuer.id = b.issuer.id))).code).toBe("issuer_mismatch");
    });

    it("fails the seal's signature when the logged sealed leaf was signed by another key", () => {
      const forged = makeBundle({ treeSize: 9, index: 3, sealedBy: sealer, sealType, sealSignedBy: makeKey() });
      const r = verifyProofBundle(forged.bundle, { logPublicKey: forged.logKey.publicKeyPem });
      expect(r).toMatchObject({ ok: false, code: "seal_signature_invalid" });
    });

    it("fails key validity when the sealing key had expired at created_at", () => {
      // The sealed leaf is dated to the attestation's second (v2) or millisecond (v1): 05:06:07(.089).
      const before = sealType === SEALED_V2 ? "2025-03-04T05:06:06.999Z" : "2025-03-04T05:06:07.088Z";
      expect(outcome(edited((b) => (b.seal.key.expires_at = before)))).toMatchObject({ code: "key_expired" });
      const at = sealType === SEALED_V2 ? "2025-03-04T05:06:07.000Z" : "2025-03-04T05:06:07.089Z";
      expect(outcome(edited((b) => (b.seal.key.expires_at = at))).code).toBe("ok");
    });

    it("without its seal, is a bundle whose attestation is not in the log", () => {
      expect(outcome(edited((b) => delete b.seal)).code).toBe("inclusion_proof_invalid");
    });

    it("its sealed leaf alone (as the tiles show it) verifies as a sealed entry that names nothing", () => {
      const alone = edited((b) => {
        b.attestation = { ...b.seal.leaf, status: "VALID", log_index: b.attestation.log_index };
        b.issuer = b.seal.issuer;
        b.key = b.seal.key;
        delete b.seal;
      });
      const r = verify(alone);
      expect(r).toMatchObject({ ok: true, kind: "sealed" });
      expect(r.checks.map((c) => c.name)).toEqual(["checkpoint_signature", "inclusion", "attestation_signature", "key_validity"]);
      // A leaf whose commitment was changed is not the one the log holds.
      expect(
        outcome(
          edited((b) => {
            b.attestation = {
              ...b.seal.leaf,
              payload: { ...b.seal.leaf.payload, commitment: flipLast(b.seal.leaf.payload.commitment) },
              log_index: 3,
            };
            b.issuer = b.seal.issuer;
            b.key = b.seal.key;
            delete b.seal;
          }),
        ).code,
      ).toBe("inclusion_proof_invalid");
    });
  });
}

describe("an entry logged in the open", () => {
  it("is of kind open", () => {
    const { bundle, logKey } = makeBundle({ treeSize: 5, index: 2 });
    expect(verifyProofBundle(bundle, { logPublicKey: logKey.publicKeyPem })).toMatchObject({ ok: true, kind: "open" });
  });
});
