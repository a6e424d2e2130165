// add-checkpoint's parse and authentication: whatever the note's signature lines, each key is
// verified at most once (the first line by it), as Go's note.Open reads a note.
import { generateKeyPairSync, sign } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { noteKeyId } from "@/lib/verify/checkpoint";

const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/verify/ed25519", async (original) => {
  const real = await original<typeof import("@/lib/verify/ed25519")>();
  return {
    ...real,
    verifyEd25519: (...args: Parameters<typeof real.verifyEd25519>) => {
      verifications.count++;
      return real.verifyEd25519(...args);
    },
  };
});
const { parseRequest, withoutRepeatedLines } = await import("./request");

const ORIGIN = "unit.example/log";
const key = generateKeyPairSync("ed25519");
const publicKey = new Uint8Array(key.publicKey.export({ format: "der", type: "spki" }).subarray(-32));
const keyId = noteKeyId(ORIGIN, publicKey);
const log = { origin: ORIGIN, vkey: "", keyName: ORIGIN, keyId, publicKey, qpd: 1, contact: "" };
const logs = new Map([[ORIGIN, log]]);
const body = `${ORIGIN}\n1\n${Buffer.alloc(32, 7).toString("base64")}\n`;
const line = `\u2014 ${ORIGIN} ${Buffer.concat([keyId, sign(null, Buffer.from(body), key.privateKey)]).toString("base64")}`;
const broken = line.slice(0, -4) + (line.at(-4) === "A" ? "B" : "A") + line.slice(-3);
const other = `\u2014 other.example/key ${Buffer.alloc(68, 9).toString("base64")}`;
const requestWith = (lines: string[]) => `old 0\n\n${body}\n${lines.map((l) => `${l}\n`).join("")}`;

describe("parseRequest", () => {
  beforeEach(() => {
    verifications.count = 0;
  });

  it("verifies one line of 100 copies, and keeps that one", () => {
    const req = parseRequest(requestWith(Array(100).fill(line)), logs);
    expect(verifications.count).toBe(1);
    expect(req.logLine).toBe(`${line}\n`);
  });

  it("reads the first line by the log's key only: broken copies after it are dropped, a broken first one is 403", () => {
    expect(parseRequest(requestWith([line, ...Array(99).fill(broken)]), logs).logLine).toBe(`${line}\n`);
    expect(verifications.count).toBe(1);
    expect(() => parseRequest(requestWith([broken, line]), logs)).toThrow(expect.objectContaining({ code: "untrusted_checkpoint" }));
    expect(verifications.count).toBe(2);
  });

  it("never verifies lines by keys it does not trust", () => {
    parseRequest(requestWith([...Array(99).fill(other), line]), logs);
    expect(verifications.count).toBe(1);
    expect(() => parseRequest(requestWith(Array(100).fill(other)), logs)).toThrow(
      expect.objectContaining({ code: "untrusted_checkpoint" }),
    );
    expect(verifications.count).toBe(1);
  });

  it("drops exact copies of a line before decoding any, and leaves a note of too many lines whole", () => {
    const note = (lines: string[]) => `${body}\n${lines.map((l) => `${l}\n`).join("")}`;
    expect(withoutRepeatedLines(note([line, other, line, line, other]))).toBe(note([line, other]));
    expect(withoutRepeatedLines(note(Array(101).fill(line)))).toBe(note(Array(101).fill(line)));
    expect(() => parseRequest(requestWith(Array(101).fill(line)), logs)).toThrow(expect.objectContaining({ code: "malformed_request" }));
  });
});
