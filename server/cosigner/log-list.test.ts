// The witness network's log-list format (logs/v0), read from a real list of the network's and
// from cases the format's text rules out: an entry that breaks a rule is skipped and named, the
// others are used.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLogList } from "./log-list";

const real = fs.readFileSync(path.join(__dirname, "testdata/witness-network-testing.log-list"), "utf8");
const VKEY =
  "sigsum.org/v1/tree/4e89cc51651f0d95f3c6127c15e1a42e3ddf7046c5b17b752689c402e773bb4d+778629b1+AUZEryq9QPSJWgA7yjUPnVkSqzAaScd/E+W22QXCCl/m";
const OTHER = "other.example/log+94ad5cce+AeIr+PEypYBK4lO1fLHm4Pj1wkBpglYuNojLFbXvq8Lg";
const good = `vkey ${OTHER}\nqpd 24\ncontact good\n`;

describe("logs/v0 log lists", () => {
  it("reads the witness network's testing list: every log, its origin (the key's name), qpd and contact", () => {
    const { logs, skipped } = parseLogList(real);
    expect(skipped).toEqual([]);
    expect(logs).toHaveLength(real.split("\n").filter((l) => l.startsWith("vkey ")).length);
    const sigsum = logs.find((l) => l.vkey === VKEY)!;
    expect(sigsum).toMatchObject({
      origin: "sigsum.org/v1/tree/4e89cc51651f0d95f3c6127c15e1a42e3ddf7046c5b17b752689c402e773bb4d",
      qpd: 8640,
    });
    expect(Buffer.from(sigsum.keyId).toString("hex")).toBe("778629b1");
    expect(sigsum.contact).toMatch(/^sigsum-logs \(at\) glasklarteknik\.se/);
  });

  it("takes an origin line that differs from the key's name, in its place after vkey", () => {
    const { logs } = parseLogList(`logs/v0\n  vkey ${VKEY}  \n origin something-else.example/log\nqpd 24\ncontact ops\n`);
    expect(logs[0]).toMatchObject({ origin: "something-else.example/log", keyName: VKEY.split("+")[0], qpd: 24 });
  });

  it("refuses a text that is not a logs/v0 list at all", () => {
    expect(() => parseLogList(`vkey ${VKEY}\nqpd 1\ncontact c\n`)).toThrow(/logs\/v0/);
    expect(() => parseLogList("<html>not found</html>")).toThrow(/logs\/v0/);
  });

  it.each([
    ["lines out of order", `vkey ${VKEY}\ncontact c\nqpd 1\n`, /line 3: expected "qpd/],
    ["a qpd with a leading zero", `vkey ${VKEY}\nqpd 086400\ncontact c\n`, /line 3: qpd must be/],
    ["a qpd of 2^31", `vkey ${VKEY}\nqpd 2147483648\ncontact c\n`, /qpd must be/],
    ["no contact", `vkey ${VKEY}\nqpd 1\n`, /expected "contact/],
    ["a key that is not Ed25519", `vkey ${VKEY.replace("+AUZ", "+BUZ")}\nqpd 1\ncontact c\n`, /line 2/],
    ["a key that is not a key", "vkey nonsense\nqpd 1\ncontact c\n", /line 2/],
    ["a line the format does not have", `vkey ${VKEY}\nqpd 1\ncontact c\nmirror https://x.example\n`, /line 5: unexpected/],
  ])("skips an entry with %s, and uses the others", (_name, entry, reason) => {
    const { logs, skipped } = parseLogList(`logs/v0\n${entry}${good}`);
    expect(logs.map((l) => l.origin)).toEqual(["other.example/log"]);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ line: 2, reason: expect.stringMatching(reason) });
  });

  it("names a stray line before any entry, and uses neither entry of an origin listed twice", () => {
    const { logs, skipped } = parseLogList(`logs/v0\nqpd 5\n${good}vkey ${VKEY}\nqpd 1\ncontact c\n${good}`);
    expect(logs.map((l) => l.origin)).toEqual([VKEY.split("+")[0]]);
    expect(skipped.map((s) => [s.line, s.origin])).toEqual([
      [2, undefined],
      [3, "other.example/log"],
      [9, "other.example/log"],
    ]);
    expect(skipped[1]!.reason).toMatch(/listed more than once/);
  });
});
