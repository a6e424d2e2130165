// Cosignatures (tlog-cosignature), policies (tlog-policy) and a checkpoint checked under one.
// Witness signatures are made by testing/witnesses.ts (node:crypto and @noble/post-quantum, from
// the spec's message definitions), independently of cosignature.ts.
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSignedNote, verifierKey } from "./checkpoint";
import { base64ToBytes } from "./encoding";
import { describeQuorum, formatPolicy, parsePolicy, PolicyError, quorumMet } from "./policy";
import { parseCosignerKey, verifyCosignature } from "./cosignature";
import { requireQuorum, verifyWitnessedCheckpoint } from "./witnessed";
import { resolveLogKey } from "./log-key";
import { verifyLogCheckpoint } from "./log-signature";
import { edWitness, keyId, mldsaWitness } from "./testing/witnesses";

const b64 = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64");
const rawPub = (k: KeyObject) => new Uint8Array(k.export({ format: "der", type: "spki" }).subarray(-32));

function log(origin: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = rawPub(publicKey);
  return {
    vkey: verifierKey(origin, pub),
    note(size: number) {
      const body = `${origin}\n${size}\n${b64(createHash("sha256").update(String(size)).digest())}\n`;
      return {
        body,
        note: `${body}\n— ${origin} ${b64(Buffer.concat([keyId(origin, 0x01, pub), sign(null, Buffer.from(body), privateKey)]))}\n`,
      };
    },
  };
}

describe("tlog-cosignature", () => {
  it("reads the spec's example cosignature: key ID, then its timestamp 1679315147", () => {
    const line =
      "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n";
    const note = `example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n${line}`;
    const [sig] = parseSignedNote(note).signatures;
    expect(sig!.name).toBe("witness.example.com/w1");
    expect(sig!.signature.length).toBe(8 + 64);
    expect(Buffer.from(sig!.signature.subarray(0, 8)).readBigUInt64BE()).toBe(1679315147n);
  });

  for (const [kind, make] of [
    ["Ed25519", edWitness],
    ["ML-DSA-44", mldsaWitness],
  ] as const) {
    it(`verifies a ${kind} cosignature and refuses it on another body, time or key`, () => {
      const w = make("witness.example/w1");
      const key = parseCosignerKey(w.vkey);
      const { body } = log("example.com/log").note(42);
      const [sig] = parseSignedNote(`${body}\n${w.cosign(body, 1_700_000_000)}`).signatures;
      expect(verifyCosignature(body, sig!, key)).toBe(1_700_000_000);
      expect(verifyCosignature(body.replace("42", "43"), sig!, key)).toBeNull();
      const tampered = { ...sig!, signature: Uint8Array.from(sig!.signature) };
      tampered.signature[7]! ^= 1;
      expect(verifyCosignature(body, tampered, key)).toBeNull();
      expect(verifyCosignature(body, sig!, parseCosignerKey(make("witness.example/w2").vkey))).toBeNull();
    });
  }

  it("refuses a verifier key whose key ID does not match, or of a type that is not a cosigner's", () => {
    const w = edWitness("w.example");
    expect(() => parseCosignerKey(w.vkey.replace(/\+[0-9a-f]{8}\+/, "+00000000+"))).toThrow(/key ID/);
    expect(() => parseCosignerKey(log("w.example").vkey)).toThrow(/0x04/);
  });
});

describe("tlog-policy", () => {
  const [a, b, c] = [edWitness("a.example"), edWitness("b.example"), mldsaWitness("c.example")];
  const l = log("example.com/log");
  const text = `# the log and three witnesses
log ${l.vkey} https://example.com/v1/log
\twitness A ${a.vkey} https://a.example/
witness B ${b.vkey}
witness C ${c.vkey}
group AB 1 A B
group all-of-them all AB C
quorum all-of-them
`;

  it("parses logs, witnesses, groups and the quorum, and says the quorum in words", () => {
    const p = parsePolicy(text);
    expect(p.logs.map((x) => [x.origin, x.url])).toEqual([["example.com/log", "https://example.com/v1/log"]]);
    expect(p.witnesses.map((w) => [w.name, w.url ?? null])).toEqual([
      ["A", "https://a.example/"],
      ["B", null],
      ["C", null],
    ]);
    expect(describeQuorum(p)).toBe("all of (any of (A, B), C)");
    expect(quorumMet(p, new Set(["A", "C"]))).toBe(true);
    expect(quorumMet(p, new Set(["A", "B"]))).toBe(false);
    expect(quorumMet(p, new Set(["C"]))).toBe(false);
    expect(parsePolicy(formatPolicy(p))).toEqual(p);
    expect(quorumMet(parsePolicy("quorum none\n"), new Set())).toBe(true);
  });

  it("refuses what the spec does not allow", () => {
    const bad = [
      "", // no quorum
      "quorum none\nquorum none\n",
      `witness A ${a.vkey}\nwitness A ${b.vkey}\nquorum A\n`, // a name twice
      `witness A ${a.vkey}\nwitness B ${a.vkey}\nquorum A\n`, // a key twice
      `log ${l.vkey}\nlog ${l.vkey}\nquorum none\n`,
      `witness A ${a.vkey}\ngroup G 2 A\nquorum G\n`, // k > n
      `witness A ${a.vkey}\ngroup G 0 A\nquorum G\n`,
      `witness A ${a.vkey}\ngroup G 1 A\ngroup H 1 A\nquorum H\n`, // a member twice
      `group G any A\nwitness A ${a.vkey}\nquorum G\n`, // defined later
      `witness A ${a.vkey}\ngroup G any none\nquorum G\n`,
      "quorum X\n",
      `witness A ${a.vkey}\nquorum A\nfrobnicate\n`,
      `witness A ${l.vkey}\nquorum A\n`, // a log key as a witness
      "quorum none\r\n",
      `witness A\u0001 ${a.vkey}\nquorum A\n`,
    ];
    for (const t of bad) expect(() => parsePolicy(t), JSON.stringify(t)).toThrow(PolicyError);
  });
});

describe("a checkpoint under a policy", () => {
  const [a, b] = [edWitness("a.example"), mldsaWitness("b.example")];
  const l = log("example.com/log");
  const policy = parsePolicy(`log ${l.vkey}\nwitness A ${a.vkey}\nwitness B ${b.vkey}\ngroup both all A B\nquorum both\n`);

  it("names each witness that cosigned and when, and whether the quorum is met", () => {
    const { body, note } = l.note(7);
    const one = verifyWitnessedCheckpoint(note + a.cosign(body, 1000), policy);
    expect(one.cosigners).toEqual([{ witness: "A", keyName: "a.example", timestamp: 1000 }]);
    expect(one.quorum).toEqual({ met: false, rule: "all of (A, B)" });
    expect(() => requireQuorum(one)).toThrow(/requires all of \(A, B\)/);
    const both = verifyWitnessedCheckpoint(note + a.cosign(body, 1000) + b.cosign(body, 1001), policy);
    expect(both.quorum.met).toBe(true);
    expect(both.cosigners.map((c) => c.witness)).toEqual(["A", "B"]);
  });

  it("ignores cosignatures by unknown keys, and refuses a bad one by a known key", () => {
    const { body, note } = l.note(7);
    const stranger = edWitness("a.example"); // same name, another key
    const r = verifyWitnessedCheckpoint(note + stranger.cosign(body, 5), policy);
    expect(r.cosigners).toEqual([]);
    const forged = a.cosign(l.note(8).body, 5); // A's signature, over another checkpoint
    expect(() => verifyWitnessedCheckpoint(note + forged, policy)).toThrow(expect.objectContaining({ code: "cosignature_invalid" }));
  });

  it("needs a log key of the policy for the origin, and its valid signature", () => {
    const other = log("example.com/other");
    expect(() => verifyWitnessedCheckpoint(other.note(1).note, policy)).toThrow(expect.objectContaining({ code: "unknown_log" }));
    const impostor = log("example.com/log");
    expect(() => verifyWitnessedCheckpoint(impostor.note(1).note, policy)).toThrow(
      expect.objectContaining({ code: "checkpoint_signature_invalid" }),
    );
    const { note } = l.note(3);
    const sigStart = note.lastIndexOf(" ") + 1;
    const raw = base64ToBytes(note.slice(sigStart, -1));
    raw[10]! ^= 1;
    expect(() => verifyWitnessedCheckpoint(note.slice(0, sigStart) + b64(raw) + "\n", policy)).toThrow(
      expect.objectContaining({ code: "checkpoint_signature_invalid" }),
    );
  });
});

describe("an ML-DSA-44 log key (tlog-checkpoint's recommendation), beside the Ed25519 one", () => {
  const origin = "pq.example/log";
  const ed = log(origin);
  // The log's ML-DSA-44 line is a tlog-cosignature line with the origin as its name.
  const pq = mldsaWitness(origin);
  const { body, note } = ed.note(42);
  const both = note + pq.cosign(body, 1_700_000_000);

  it("a policy may name it as a log key; a checkpoint signed by either of a policy's log keys is the log's", () => {
    const onlyPq = parsePolicy(`log ${pq.vkey}\nquorum none\n`);
    expect(onlyPq.logs[0]).toMatchObject({ origin, vkey: pq.vkey });
    expect(verifyWitnessedCheckpoint(both, onlyPq)).toMatchObject({ treeSize: 42, logKey: pq.vkey });
    const onlyEd = parsePolicy(`log ${ed.vkey}\nquorum none\n`);
    expect(verifyWitnessedCheckpoint(both, onlyEd)).toMatchObject({ treeSize: 42, logKey: ed.vkey });
    // Signed by the Ed25519 key alone: not the log's under a policy that knows only the ML-DSA-44 key.
    expect(() => verifyWitnessedCheckpoint(note, onlyPq)).toThrow(/no signature by a log key/);
    expect(() => parsePolicy(`log ${edWitness(origin).vkey}\nquorum none\n`)).toThrow(/log key is Ed25519, type 0x01, or ML-DSA-44/);
  });

  it("a pinned ML-DSA-44 vkey verifies its own line and ignores the Ed25519 one; a bad line is refused", () => {
    const key = resolveLogKey(pq.vkey);
    expect(key.mlDsa44?.name).toBe(origin);
    expect(verifyLogCheckpoint(both, key).treeSize).toBe(42);
    expect(verifyLogCheckpoint(both, resolveLogKey(ed.vkey)).treeSize).toBe(42);
    expect(() => verifyLogCheckpoint(note, key)).toThrow(/no ML-DSA-44 signature/);
    const line = pq.cosign(body, 1_700_000_000);
    const bad = line.replace(/([A-Za-z0-9+/]{20})([A-Za-z0-9+/])/, (_, a: string, c: string) => a + (c === "A" ? "B" : "A"));
    expect(() => verifyLogCheckpoint(note + bad, key)).toThrow(/does not verify/);
    // Another origin's checkpoint is not this key's, whatever it carries.
    expect(() => verifyLogCheckpoint(both.replaceAll(origin, "other.example/log"), key)).toThrow();
  });
});
