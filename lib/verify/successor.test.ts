// A log's successor statement and one step of a chain of logs: built with node:crypto keys and
// the reference Merkle tree (testing/), checked by lib/verify, and every way it can be wrong refused.
import { createHash } from "node:crypto";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import { describe, expect, it } from "vitest";
import { leafData, signingMessage } from "./attestation";
import { formatSignedNote, noteSignatureBase64, verifierKey } from "./checkpoint";
import { utf8Encode } from "./encoding";
import { parsePolicy } from "./policy";
import { SUCCESSOR_TYPE, successorBody, verifySuccessor, verifySuccessorProof } from "./successor";
import { ISSUER_ID, makeKey, signBytes, signCheckpoint, type TestKey } from "./testing/fixtures";
import { leafDataFor, refMth, refPath } from "./testing/merkle-reference";
import { formatTlogProof, type LoggedAttestation } from "./tlog-proof";

const OLD = "hallmark.test/log";
const NEW = "hallmark.test/log/1";
const mlDsaPublic = ml_dsa44.keygen(new Uint8Array(32).fill(7)).publicKey;
const ML_DSA = `${NEW}+${keyIdHex(NEW, 6, mlDsaPublic)}+${Buffer.concat([Buffer.from([6]), mlDsaPublic]).toString("base64")}`;

function statement(old: TestKey, next: TestKey, o: { nextSigns?: boolean; body?: string } = {}) {
  const vkey = verifierKey(NEW, next.publicKeyRaw);
  const body = o.body ?? successorBody(OLD, vkey, ML_DSA);
  const msg = utf8Encode(body);
  let note = formatSignedNote(body, OLD, old.publicKeyRaw, signBytes(old, msg));
  if (o.nextSigns !== false) note += `\u2014 ${NEW} ${noteSignatureBase64(NEW, next.publicKeyRaw, signBytes(next, msg))}\n`;
  return { type: SUCCESSOR_TYPE, predecessor: OLD, successor: NEW, verifier_key: vkey, ml_dsa_44_verifier_key: ML_DSA, statement: note };
}

function entry(issuer: TestKey, payload: Record<string, unknown>): LoggedAttestation {
  const fields = {
    id: "0190f5a0-0000-7000-8000-0000000000aa",
    issuer_id: ISSUER_ID,
    kid: "k",
    payload,
    created_at: "2026-11-26T00:00:00.000Z",
  };
  return { ...fields, signature: Buffer.from(signBytes(issuer, signingMessage(fields))).toString("base64") };
}

describe("successor statement", () => {
  const old = makeKey();
  const next = makeKey();
  const issuer = makeKey();
  const predecessor = { origin: OLD, publicKey: old.publicKeyRaw };

  it("names the next log's origin and key when signed by both logs' keys", () => {
    const v = verifySuccessor(entry(issuer, statement(old, next)), predecessor);
    expect(v.origin).toBe(NEW);
    expect(Buffer.from(v.publicKey).equals(Buffer.from(next.publicKeyRaw))).toBe(true);
    expect(v.mlDsa44VerifierKey).toBe(ML_DSA);
  });

  it.each([
    ["signed by the old key only", () => statement(old, next, { nextSigns: false }), "checkpoint_signature_invalid"],
    ["signed by another old key", () => statement(makeKey(), next), "checkpoint_signature_invalid"],
    [
      "a body other than its members",
      () => statement(old, next, { body: successorBody(OLD, verifierKey(NEW, makeKey().publicKeyRaw), ML_DSA) }),
      "successor_invalid",
    ],
    ["another predecessor", () => ({ ...statement(old, next), predecessor: "elsewhere/log" }), "successor_invalid"],
    ["a key of another origin", () => ({ ...statement(old, next), successor: "elsewhere/log" }), "successor_invalid"],
    [
      "an ML-DSA-44 key that is not one",
      () => ({ ...statement(old, next), ml_dsa_44_verifier_key: `${NEW}+00000000+BgAA` }),
      "successor_invalid",
    ],
    ["a member more", () => ({ ...statement(old, next), extra: "x" }), "successor_invalid"],
    ["another type", () => ({ ...statement(old, next), type: "hallmark.log-successor/v2" }), "successor_invalid"],
  ])("is refused when %s", (_, make, code) => {
    expect(() => verifySuccessor(entry(issuer, make()), predecessor)).toThrow(expect.objectContaining({ code }));
  });

  describe("as one step of a chain (a tlog-proof of the old log's last entry)", () => {
    const leaves = [leafDataFor(0), leafDataFor(1), leafData(entry(issuer, statement(old, next)))];
    const proofOf = (index: number, size: number, signer = old) =>
      formatTlogProof({
        extra: leaves[index]!,
        index,
        proof: refPath(index, leaves.slice(0, size)),
        checkpoint: signCheckpoint(signer, OLD, size, refMth(leaves.slice(0, size))),
      });

    it("leads from the old log's key to the new one", () => {
      const step = verifySuccessorProof(proofOf(2, 3), predecessor);
      expect(step).toMatchObject({ origin: NEW, finalSize: 3, verifierKey: verifierKey(NEW, next.publicKeyRaw) });
    });

    it("is refused when the statement is not the last entry of its checkpoint", () => {
      leaves.push(leafDataFor(3));
      try {
        expect(() => verifySuccessorProof(proofOf(2, 4), predecessor)).toThrow(expect.objectContaining({ code: "chain_invalid" }));
      } finally {
        leaves.pop();
      }
    });

    it("is refused under another key, or without the witnesses a policy requires", () => {
      expect(() => verifySuccessorProof(proofOf(2, 3, makeKey()), predecessor)).toThrow(
        expect.objectContaining({ code: "checkpoint_signature_invalid" }),
      );
      const witness = makeKey();
      const raw = Buffer.concat([Buffer.from([4]), witness.publicKeyRaw]).toString("base64");
      const policy = parsePolicy(`witness w w.test+${keyIdHex("w.test", 4, witness.publicKeyRaw)}+${raw}\nquorum w\n`);
      expect(() => verifySuccessorProof(proofOf(2, 3), predecessor, policy)).toThrow(expect.objectContaining({ code: "quorum_not_met" }));
    });

    it("is refused when the entry proven is not a successor statement", () => {
      expect(() => verifySuccessorProof(proofOf(1, 2), predecessor)).toThrow();
    });
  });
});

/** A signed-note key ID (C2SP signed-note): the first 4 bytes of SHA-256(name, 0x0A, type, key). */
function keyIdHex(name: string, type: number, key: Uint8Array): string {
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, type]), key]))
    .digest()
    .subarray(0, 4)
    .toString("hex");
}
