// The ML-DSA-44 cosigned message (tlog-cosignature) against another implementation's output:
// torchwood's litewitness test vector (testing/vectors/torchwood, ISC), an ML-DSA-44 log
// signature over the subtree/v1 message made by Go code (filippo.io/mldsa, torchwood) with the
// timestamp 0; and what a zero timestamp means to a verifier: a cosignature, never freshness.
import fs from "node:fs";
import path from "node:path";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";
import { describe, expect, it } from "vitest";
import { parseSignedNote } from "./checkpoint";
import { COSIGNATURE_ML_DSA_44, parseCosignerKey, subtreeV1Message, verifyCosignature } from "./cosignature";
import { parseMlDsaLogKey, verifyLogCheckpoint } from "./log-signature";
import { parsePolicy } from "./policy";
import { describeCosigners, verifyWitnessedCheckpoint } from "./witnessed";
import { edWitness, mldsaWitness } from "./testing/witnesses";

const script = fs.readFileSync(path.join(__dirname, "testing/vectors/torchwood/mldsa.txt"), "utf8");
/** The log's verifier key, as the test hands it to witnessctl. */
const vkey = /add-key -origin \S+ -key (\S+)\n/.exec(script)![1]!;
/** The checkpoint the test submits (after `old 0` and the blank line), signature line included. */
const note = /\nold 0\n\n([\s\S]+?\n)```\n/.exec(script)![1]!;
const seed = Buffer.from(/# gentest seed: ([0-9a-f]{64})\n/.exec(script)![1]!, "hex");

describe("torchwood's ML-DSA-44 log signature (litewitness test data)", () => {
  const key = parseMlDsaLogKey(vkey)!;

  it("holds what its generator says: an ML-DSA-44 key of its origin, a checkpoint of size 1 signed at time 0", () => {
    expect(key).not.toBeNull();
    expect(key.type).toBe(COSIGNATURE_ML_DSA_44);
    expect(key.name).toBe("example.com/mldsa-log");
    const parsed = parseSignedNote(note);
    expect(parsed.body).toBe("example.com/mldsa-log\n1\n+zoErtsZtGO6sfiSV/v4UJSIyowisE8hvjw0q5+bD38=\n");
    expect(parsed.signatures).toHaveLength(1);
    expect(Buffer.from(parsed.signatures[0]!.signature.subarray(0, 8)).readBigUInt64BE()).toBe(0n);
  });

  it("has the public key @noble/post-quantum makes from the generator's seed", () => {
    expect(Buffer.from(ml_dsa44.keygen(new Uint8Array(seed)).publicKey).equals(Buffer.from(key.publicKey))).toBe(true);
  });

  it("verifies under the pinned ML-DSA-44 key: the subtree/v1 message, with its zero timestamp", () => {
    const parsed = parseSignedNote(note);
    expect(verifyCosignature(parsed.body, parsed.signatures[0]!, key)).toBe(0);
    expect(verifyLogCheckpoint(note, { publicKey: key.publicKey, mlDsa44: key })).toMatchObject({
      origin: "example.com/mldsa-log",
      treeSize: 1,
    });
    // The message bytes are what torchwood signed: the signature verifies over them directly.
    const message = subtreeV1Message(key.name, 0, parsed.body);
    expect(ml_dsa44.verify(parsed.signatures[0]!.signature.subarray(8), message, key.publicKey)).toBe(true);
  });

  it("fails on another size, root, time or signature byte", () => {
    const parsed = parseSignedNote(note);
    const sig = parsed.signatures[0]!;
    expect(verifyCosignature(parsed.body.replace("\n1\n", "\n2\n"), sig, key)).toBeNull();
    expect(verifyCosignature(parsed.body.replace("+zoE", "+zoF"), sig, key)).toBeNull();
    for (const at of [7, 8, 500, sig.signature.length - 1]) {
      const bytes = Uint8Array.from(sig.signature);
      bytes[at]! ^= 1;
      expect(verifyCosignature(parsed.body, { ...sig, signature: bytes }, key), `byte ${at}`).toBeNull();
    }
    expect(() => verifyLogCheckpoint(note.replace("\n1\n", "\n2\n"), { publicKey: key.publicKey, mlDsa44: key })).toThrow();
  });
});

describe("a cosignature that states no time (timestamp 0)", () => {
  const w = mldsaWitness("witness.example/pq");
  const e = edWitness("witness.example/ed");
  const origin = "example.com/mldsa-log";
  const logLine = note.slice(note.indexOf("\n\n") + 2);
  const body = parseSignedNote(note).body;
  const policy = parsePolicy(`log ${vkey}\nwitness W ${w.vkey}\nwitness E ${e.vkey}\nquorum W\n`);

  it("does not fail the note, counts toward the quorum, and states no time", () => {
    const r = verifyWitnessedCheckpoint(`${body}\n${logLine}${w.cosign(body, 0)}`, policy);
    expect(r.origin).toBe(origin);
    expect(r.quorum.met).toBe(true);
    expect(r.cosigners).toEqual([{ witness: "W", keyName: "witness.example/pq", timestamp: 0 }]);
    expect(describeCosigners(r.cosigners)).toBe("W (witness.example/pq, no time stated)");
  });

  it("gives way to a timestamped line by the same witness, whichever comes first", () => {
    for (const lines of [w.cosign(body, 0) + w.cosign(body, 1_700_000_000), w.cosign(body, 1_700_000_000) + w.cosign(body, 0)]) {
      const r = verifyWitnessedCheckpoint(`${body}\n${logLine}${lines}`, policy);
      expect(r.cosigners).toEqual([{ witness: "W", keyName: "witness.example/pq", timestamp: 1_700_000_000 }]);
    }
  });

  it("still fails the note when its signature is bad", () => {
    const line = w.cosign(body.replace("\n1\n", "\n2\n"), 0);
    expect(() => verifyWitnessedCheckpoint(`${body}\n${logLine}${line}`, policy)).toThrow(
      expect.objectContaining({ code: "cosignature_invalid" }),
    );
    expect(parseCosignerKey(w.vkey).type).toBe(COSIGNATURE_ML_DSA_44);
  });
});
