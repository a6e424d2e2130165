// The witness network's log-list format (logs/v0), read from a real list of the network's and
// from cases the format's text rules out.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLogList } from "./log-list";

const real = fs.readFileSync(path.join(__dirname, "testdata/witness-network-testing.log-list"), "utf8");
const VKEY =
  "sigsum.org/v1/tree/4e89cc51651f0d95f3c6127c15e1a42e3ddf7046c5b17b752689c402e773bb4d+778629b1+AUZEryq9QPSJWgA7yjUPnVkSqzAaScd/E+W22QXCCl/m";

describe("logs/v0 log lists", () => {
  it("reads the witness network's testing list: every log, its origin (the key's name), qpd and contact", () => {
    const logs = parseLogList(real);
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
    const [log] = parseLogList(`logs/v0\n  vkey ${VKEY}  \n origin something-else.example/log\nqpd 24\ncontact ops\n`);
    expect(log).toMatchObject({ origin: "something-else.example/log", keyName: VKEY.split("+")[0], qpd: 24 });
  });

  it.each([
    ["no header", `vkey ${VKEY}\nqpd 1\ncontact c\n`, /logs\/v0/],
    ["lines out of order", `logs/v0\nvkey ${VKEY}\ncontact c\nqpd 1\n`, /expected "qpd/],
    ["a qpd with a leading zero", `logs/v0\nvkey ${VKEY}\nqpd 086400\ncontact c\n`, /qpd must be/],
    ["a qpd of 2^31", `logs/v0\nvkey ${VKEY}\nqpd 2147483648\ncontact c\n`, /qpd must be/],
    ["no contact", `logs/v0\nvkey ${VKEY}\nqpd 1\n`, /expected "contact/],
    ["a key that is not Ed25519", `logs/v0\nvkey ${VKEY.replace("+AUZ", "+BUZ")}\nqpd 1\ncontact c\n`, /line 2/],
    ["one origin twice", `logs/v0\nvkey ${VKEY}\nqpd 1\ncontact c\nvkey ${VKEY}\nqpd 1\ncontact c\n`, /listed twice/],
  ])("refuses %s", (_name, text, message) => {
    expect(() => parseLogList(text)).toThrow(message);
  });
});
