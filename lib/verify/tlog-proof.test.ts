import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { leafData } from "./attestation";
import { verifierKey } from "./checkpoint";
import { parsePolicy } from "./policy";
import { refMth, refPath } from "./testing/merkle-reference";
import { formatTlogProof, parseTlogProof, verifyTlogProof } from "./tlog-proof";

// The spec's own example (signatures elided there, so only its structure is read here).
const SPEC_EXAMPLE = `c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
`;

const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

function makeLog(n: number) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(-32));
  const origin = "example.com/hallmark";
  const atts = Array.from({ length: n }, (_, i) => ({
    id: `0192e0a0-0000-7000-8000-${String(i).padStart(12, "0")}`,
    issuer_id: "0192e0a0-0000-7000-8000-aaaaaaaaaaaa",
    kid: "kid",
    payload: { content_hash: createHash("sha256").update(String(i)).digest("hex"), n: i },
    created_at: "2026-11-24T00:00:00.000Z",
    signature: b64(new Uint8Array(64)),
  }));
  const leaves = atts.map((a) => leafData(a));
  const body = `${origin}\n${n}\n${b64(refMth(leaves))}\n`;
  const keyId = createHash("sha256")
    .update(origin)
    .update(Buffer.from([0x0a, 0x01]))
    .update(pub)
    .digest()
    .subarray(0, 4);
  const note = `${body}\n— ${origin} ${b64(Buffer.concat([keyId, sign(null, Buffer.from(body), privateKey)]))}\n`;
  const proofOf = (i: number) => formatTlogProof({ extra: leaves[i], index: i, proof: refPath(i, leaves), checkpoint: note });
  return { pub, origin, vkey: verifierKey(origin, pub), proofOf, note, leaves };
}

describe("tlog-proof@v1", () => {
  it("reads the spec's example: extra, index, five proof hashes, then the checkpoint verbatim", () => {
    const p = parseTlogProof(SPEC_EXAMPLE);
    expect(Buffer.from(p.extra!).subarray(0, 22).toString()).toBe("age-v1.2.1-darwin-arm6");
    expect(p.index).toBe(73894);
    expect(p.proof.map(b64)).toEqual(SPEC_EXAMPLE.split("\n").slice(3, 8));
    expect(p.checkpoint).toBe(SPEC_EXAMPLE.split("\n\n").slice(1).join("\n\n"));
    expect(formatTlogProof(p)).toBe(SPEC_EXAMPLE);
  });

  it("verifies every leaf of a tree with only the log key, or a policy", () => {
    const log = makeLog(13);
    for (let i = 0; i < 13; i++) {
      const r = verifyTlogProof(log.proofOf(i), { logPublicKey: log.pub, origin: log.origin });
      expect([r.index, r.treeSize, r.attestation.payload.n]).toEqual([i, 13, i]);
    }
    expect(verifyTlogProof(log.proofOf(4), { policy: parsePolicy(`log ${log.vkey}\nquorum none\n`) }).cosigners).toEqual([]);
  });

  it("refuses a proof whose leaf, index, path or checkpoint was changed", () => {
    const log = makeLog(13);
    const good = log.proofOf(5);
    const key = { logPublicKey: log.pub };
    const code = (text: string) => {
      try {
        verifyTlogProof(text, key);
        return "ok";
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code(good)).toBe("ok");
    expect(code(good.replace("index 5", "index 6"))).toBe("inclusion_proof_invalid");
    expect(code(good.replace(/^extra .*$/m, `extra ${b64(log.leaves[6]!)}`))).toBe("inclusion_proof_invalid");
    const lines = good.split("\n");
    lines[3] = b64(new Uint8Array(32));
    expect(code(lines.join("\n"))).toBe("inclusion_proof_invalid");
    expect(code(good.replace(/\n13\n/, "\n14\n"))).toBe("checkpoint_signature_invalid");
    expect(code(good.replace("c2sp.org/tlog-proof@v1", "c2sp.org/tlog-proof@v2"))).toBe("malformed_tlog_proof");
    expect(code(good.replace(/^extra .*\n/m, ""))).toBe("malformed_tlog_proof");
    expect(code(good.replace(/^extra .*$/m, `extra ${b64(Buffer.from(JSON.stringify({ a: 1 })))}`))).toBe("malformed_tlog_proof");
    expect(code(good.replace("index 5", "index 05"))).toBe("malformed_tlog_proof");
    expect(code(good.replace("index 5", "index 13"))).toBe("inclusion_proof_invalid");
  });
});
