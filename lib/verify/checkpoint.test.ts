import { createPrivateKey, sign } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_NOTE_SIGNATURES,
  formatCheckpointBody,
  formatSignedNote,
  noteKeyId,
  parseCheckpointBody,
  parseSignedNote,
  parseVerifierKey,
  verifierKey,
  verifyCheckpoint,
  verifyNote,
} from "./checkpoint";
import { base64ToBytes, bytesToBase64, bytesToHex, concatBytes, hexToBytes, utf8Encode } from "./encoding";
import { VerifyError, type VerifyErrorCode } from "./errors";
import { makeKey, signBytes, signCheckpoint } from "./testing/fixtures";

// Known-answer vectors of golang.org/x/mod/sumdb/note (note_test.go: TestSign, TestOpen,
// TestVerifierList), the reference implementation of C2SP signed-note.
const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const PETER_SKEY_B64 = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"; // from "PRIVATE+KEY+PeterNeumann+c74f20a3+…"
const ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";
const peter = () => {
  const { name, publicKey } = parseVerifierKey(PETER_VKEY);
  return { name, publicKey };
};

function codeOf(fn: () => unknown): VerifyErrorCode | "ok" {
  try {
    fn();
    return "ok";
  } catch (e) {
    if (e instanceof VerifyError) return e.code;
    throw e;
  }
}

describe("signed note: golang.org/x/mod/sumdb/note vectors", () => {
  it("derives the published key IDs and verifier keys", () => {
    const p = peter();
    expect(bytesToHex(noteKeyId(p.name, p.publicKey))).toBe("c74f20a3");
    expect(verifierKey(p.name, p.publicKey)).toBe(PETER_VKEY);
    const e = parseVerifierKey(ENOCH_VKEY);
    expect(verifierKey(e.name, e.publicKey)).toBe(ENOCH_VKEY);
    expect(() => parseVerifierKey(PETER_VKEY.replace("c74f20a3", "c74f20a4"))).toThrow();
    expect(() => parseVerifierKey("PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")).toThrow();
  });

  it("reproduces the published signed note byte for byte", () => {
    const seed = base64ToBytes(PETER_SKEY_B64).slice(1);
    const pkcs8 = concatBytes(hexToBytes("302e020100300506032b657004220420"), seed);
    const key = createPrivateKey({ key: Buffer.from(pkcs8), format: "der", type: "pkcs8" });
    const sig = new Uint8Array(sign(null, utf8Encode(TEXT), key));
    expect(formatSignedNote(TEXT, "PeterNeumann", peter().publicKey, sig)).toBe(TEXT + "\n" + PETER_SIG);
  });

  it("opens the published note, ignoring signatures by other keys", () => {
    expect(verifyNote(TEXT + "\n" + PETER_SIG, peter()).body).toBe(TEXT);
    expect(verifyNote(TEXT + "\n" + PETER_SIG + ENOCH_SIG, peter()).body).toBe(TEXT);
    expect(verifyNote(TEXT + "\n" + ENOCH_SIG + PETER_SIG, peter()).signature.name).toBe("PeterNeumann");
    expect(codeOf(() => verifyNote(TEXT + "\n" + ENOCH_SIG, peter()))).toBe("checkpoint_signature_invalid");
    expect(codeOf(() => verifyNote(TEXT.replace("cryptography", "cryptographY") + "\n" + PETER_SIG, peter()))).toBe(
      "checkpoint_signature_invalid",
    );
    const broken = PETER_SIG.slice(0, 60) + "ABCD" + PETER_SIG.slice(60);
    expect(codeOf(() => verifyNote(TEXT + "\n" + broken, peter()))).toBe("checkpoint_signature_invalid");
    // A failing signature by the known key rejects the note even next to a valid one (as Go's Open does).
    expect(codeOf(() => verifyNote(TEXT + "\n" + PETER_SIG + broken, peter()))).toBe("checkpoint_signature_invalid");
    const badBytes = base64ToBytes(PETER_SIG.split(" ")[2]!.trim());
    badBytes[40]! ^= 1;
    const badSig = `— PeterNeumann ${bytesToBase64(badBytes)}\n`;
    expect(codeOf(() => verifyNote(TEXT + "\n" + badSig + PETER_SIG, peter()))).toBe("checkpoint_signature_invalid");
  });

  it("rejects the malformed notes of TestOpen", () => {
    const bad = [
      TEXT,
      TEXT + "\n",
      TEXT + "\n" + PETER_SIG.slice(0, -1),
      "\x01" + TEXT + "\n" + PETER_SIG,
      TEXT + "\n" + "— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n",
      TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
      TEXT + "\n" + PETER_SIG.repeat(MAX_NOTE_SIGNATURES + 1),
      TEXT + "\n" + "— PeterNeumann AAAA\n",
      TEXT + "\n" + "— a+b x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n",
      TEXT + "\n" + PETER_SIG.replace("=\n", "\n"),
      TEXT + "\n" + PETER_SIG.replace("\u2014", "-"),
      "x".repeat(1024 * 1024 + 1) + "\n\n" + PETER_SIG,
    ];
    for (const note of bad)
      expect(
        codeOf(() => verifyNote(note, peter())),
        JSON.stringify(note.slice(-120)),
      ).toBe("malformed_checkpoint");
    // 16 signatures must be accepted (C2SP signed-note).
    expect(verifyNote(TEXT + "\n" + ENOCH_SIG.repeat(15) + PETER_SIG, peter()).body).toBe(TEXT);
  });
});

describe("tlog-checkpoint", () => {
  const origin = "hallmark.test/log";
  const root = hexToBytes("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");

  it("parses the C2SP tlog-checkpoint example body", () => {
    const cp = parseCheckpointBody("example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n");
    expect(cp.origin).toBe("example.com/behind-the-sofa");
    expect(cp.treeSize).toBe(20852163);
    expect(bytesToBase64(cp.rootHash)).toBe("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=");
  });

  it("round-trips sign → verify for arbitrary sizes and roots", () => {
    const key = makeKey();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (size, rootHash) => {
          const note = signCheckpoint(key, origin, size, rootHash);
          expect(note.split("\n")[1]).toBe(String(size));
          const cp = verifyCheckpoint(note, { publicKey: key.publicKeyRaw, origin });
          expect(cp).toMatchObject({ origin, treeSize: size, rootHash, extensions: [] });
          expect(note.endsWith(` ${cp.signature}\n`)).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("rejects wrong key, wrong origin and any modification", () => {
    const key = makeKey();
    const note = signCheckpoint(key, origin, 8, root);
    const ok = { publicKey: key.publicKeyRaw };
    expect(codeOf(() => verifyCheckpoint(note, ok))).toBe("ok");
    expect(codeOf(() => verifyCheckpoint(note, { publicKey: makeKey().publicKeyRaw }))).toBe("checkpoint_signature_invalid");
    expect(codeOf(() => verifyCheckpoint(note, { ...ok, origin: "other.test/log" }))).toBe("origin_mismatch");
    expect(codeOf(() => verifyCheckpoint(note.replace("\n8\n", "\n9\n"), ok))).toBe("checkpoint_signature_invalid");
    const otherRoot = bytesToBase64(new Uint8Array(32));
    expect(codeOf(() => verifyCheckpoint(note.replace(bytesToBase64(root), otherRoot), ok))).toBe("checkpoint_signature_invalid");
    expect(codeOf(() => verifyCheckpoint(note.replace(origin + "\n", "hallmark.test/lo9\n"), ok))).toBe("checkpoint_signature_invalid");
    // A signature line under our name but with another key ID is someone else's: ignored.
    const sigB64 = note.trimEnd().split(" ").pop()!;
    const raw = base64ToBytes(sigB64);
    raw[0]! ^= 1;
    expect(codeOf(() => verifyCheckpoint(note.replace(sigB64, bytesToBase64(raw)), ok))).toBe("checkpoint_signature_invalid");
    expect(codeOf(() => verifyCheckpoint(note.slice(0, -1), ok))).toBe("malformed_checkpoint");
    expect(codeOf(() => verifyCheckpoint(note, { publicKey: key.publicKeyRaw.slice(1) }))).toBe("invalid_log_key");
  });

  it("accepts extra signature lines from unknown keys, and extension lines", () => {
    const key = makeKey();
    const other = makeKey();
    const note = signCheckpoint(key, origin, 8, root);
    const witness = signCheckpoint(other, "witness.test/w1", 8, root).trimEnd().split("\n").pop()!;
    const sameName = signCheckpoint(other, origin, 8, root).trimEnd().split("\n").pop()!;
    const opts = { publicKey: key.publicKeyRaw, origin };
    expect(verifyCheckpoint(note + witness + "\n", opts).treeSize).toBe(8);
    const [body, sig] = note.split("\n\n");
    expect(verifyCheckpoint(`${body}\n\n${witness}\n${sameName}\n${sig}`, opts).treeSize).toBe(8);

    const ext = formatCheckpointBody(origin, 8, root) + "extension line\n";
    const extNote = formatSignedNote(ext, origin, key.publicKeyRaw, signBytes(key, utf8Encode(ext)));
    expect(verifyCheckpoint(extNote, opts).extensions).toEqual(["extension line"]);
  });

  it("rejects validly signed bodies that are not well-formed checkpoints", () => {
    const key = makeKey();
    const b64 = bytesToBase64(root);
    const bodies = [
      `${origin}\n08\n${b64}\n`,
      `${origin}\n-1\n${b64}\n`,
      `${origin}\n1e3\n${b64}\n`,
      `${origin}\n 8\n${b64}\n`,
      `${origin}\n9007199254740992\n${b64}\n`,
      `${origin}\n8\n${b64.slice(0, -1)}\n`,
      `${origin}\n8\n${bytesToBase64(root.slice(1))}\n`,
      `${origin}\n8\n${bytesToHex(root)}\n`,
      `${origin}\n8\n`,
      `${origin}\n8\n${b64}\n\nextension after a blank line\n`,
      `\n8\n${b64}\n`,
    ];
    for (const body of bodies) {
      const note = `${body}\n— ${origin} ${bytesToBase64(concatBytes(noteKeyId(origin, key.publicKeyRaw), signBytes(key, utf8Encode(body))))}\n`;
      expect(
        codeOf(() => verifyCheckpoint(note, { publicKey: key.publicKeyRaw })),
        JSON.stringify(body),
      ).toBe("malformed_checkpoint");
    }
  });

  it("fails on any single-character change to a signed checkpoint", () => {
    const key = makeKey();
    const note = signCheckpoint(key, origin, 1234, root);
    const chars = [...note];
    fc.assert(
      fc.property(fc.nat({ max: chars.length - 1 }), fc.string({ minLength: 1, maxLength: 2 }), (pos, replacement) => {
        fc.pre(chars[pos] !== replacement);
        const tampered = [...chars.slice(0, pos), replacement, ...chars.slice(pos + 1)].join("");
        expect(codeOf(() => verifyCheckpoint(tampered, { publicKey: key.publicKeyRaw, origin }))).not.toBe("ok");
      }),
      { numRuns: 300 },
    );
  });

  it("parseSignedNote splits at the last blank line", () => {
    const parsed = parseSignedNote(TEXT + "\n" + PETER_SIG + ENOCH_SIG);
    expect(parsed.body).toBe(TEXT);
    expect(parsed.signatures.map((s) => [s.name, bytesToHex(s.keyId), s.signature.length])).toEqual([
      ["PeterNeumann", "c74f20a3", 64],
      ["EnochRoot", "af0cfe78", 64],
    ]);
  });
});
