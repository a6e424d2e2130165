// ML-DSA-44 verification (what checks the log's and the witnesses' ML-DSA-44 cosignatures)
// against published vectors: Wycheproof's (C2SP/wycheproof, Apache-2.0, testing/vectors/wycheproof),
// every test without a context string, valid and invalid (modified signatures, wrong lengths,
// bad hint encodings, norm violations, zero keys).
import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { verifyMlDsa44 } from "./cosignature";

interface Vectors {
  algorithm: string;
  testGroups: {
    publicKey: string;
    tests: { tcId: number; comment: string; msg: string; sig: string; result: string; flags: string[] }[];
  }[];
}

const file = path.join(__dirname, "testing/vectors/wycheproof/mldsa_44_verify_test.json.gz");
const vectors = JSON.parse(gunzipSync(fs.readFileSync(file)).toString("utf8")) as Vectors;
const hex = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
const cases = vectors.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, publicKey: g.publicKey })));

describe("ML-DSA-44 verification, Wycheproof's vectors", () => {
  it("holds the vectors it says (valid and invalid ones)", () => {
    expect(vectors.algorithm).toBe("ML-DSA-44");
    expect(cases.length).toBe(173);
    expect(cases.filter((c) => c.result === "valid").length).toBeGreaterThan(50);
    expect(cases.filter((c) => c.result === "invalid").length).toBeGreaterThan(90);
  });

  it.each(cases.map((c) => [c.tcId, c.comment || c.flags.join(", "), c] as const))("test %i (%s)", (_, __, c) => {
    expect(verifyMlDsa44(hex(c.publicKey), hex(c.msg), hex(c.sig))).toBe(c.result === "valid");
  });
});
