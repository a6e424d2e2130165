// The RFC 3161 verifier against tokens made by OpenSSL's TSA (e2e/tsa/test-tsa.ts), with
// OpenSSL's own `ts -verify` as the independent reference: what it accepts, this accepts, and
// each way a token can be wrong is refused with the code that says so.
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestTsa } from "@/e2e/tsa/test-tsa";
import { isVerifyError } from "./errors";
import { parseCertificates, verifyTimestampToken } from "./rfc3161";

let tsa: TestTsa;
let other: TestTsa;

/** OpenSSL's verdict on a token over `data`, given the root it trusts. */
function opensslVerifies(authority: TestTsa, token: Uint8Array, data: Uint8Array, root: string): boolean {
  const dir = authority.dir;
  const id = randomBytes(4).toString("hex");
  fs.writeFileSync(path.join(dir, `${id}.tok`), token);
  fs.writeFileSync(path.join(dir, `${id}.dat`), data);
  fs.writeFileSync(path.join(dir, `${id}.root`), root);
  const r = spawnSync("openssl", ["ts", "-verify", "-token_in", "-in", `${id}.tok`, "-data", `${id}.dat`, "-CAfile", `${id}.root`], {
    cwd: dir,
    encoding: "utf8",
  });
  return r.status === 0 && r.stdout.includes("Verification: OK");
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    if (isVerifyError(err)) return err.code;
    throw err;
  }
}

beforeAll(() => {
  tsa = new TestTsa({ name: "Hallmark Test TSA" });
  other = new TestTsa({ name: "Another TSA" });
});
afterAll(async () => {
  await tsa.close();
  await other.close();
});

describe("RFC 3161 time-stamp tokens", () => {
  it("accepts OpenSSL's token over the bytes, pinned by its root or by the TSA's own certificate, as OpenSSL does", async () => {
    const data = new TextEncoder().encode("example.org/log\n42\nq6SBx3q9tJ2nZy6cQx6Z4N8l0xTz4hQ9i0bq2mF6E3A=\n");
    const before = Date.now();
    const token = tsa.tokenOver(data);
    expect(opensslVerifies(tsa, token, data, tsa.rootPem)).toBe(true);
    for (const pinned of [tsa.rootPem, tsa.certPem]) {
      const r = await verifyTimestampToken(token, data, parseCertificates(pinned));
      expect(r.tsa).toBe("Hallmark Test TSA");
      expect(r.policy).toBe("1.3.6.1.4.1.55555.1");
      expect(r.serial).toMatch(/^[0-9a-f]+$/);
      // OpenSSL's TSA states whole seconds.
      expect(r.genTime.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(r.genTime.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it("refuses a token over other bytes, as OpenSSL does", async () => {
    const data = randomBytes(64);
    const token = tsa.tokenOver(data);
    const otherData = Buffer.concat([data, Buffer.from("x")]);
    expect(opensslVerifies(tsa, token, otherData, tsa.rootPem)).toBe(false);
    expect(await codeOf(verifyTimestampToken(token, otherData, parseCertificates(tsa.rootPem)))).toBe("timestamp_invalid");
  });

  it("refuses a token whose signer does not chain to the pinned root, as OpenSSL does", async () => {
    const data = randomBytes(32);
    const token = other.tokenOver(data);
    expect(opensslVerifies(tsa, token, data, tsa.rootPem)).toBe(false);
    expect(await codeOf(verifyTimestampToken(token, data, parseCertificates(tsa.rootPem)))).toBe("timestamp_invalid");
    expect(await codeOf(verifyTimestampToken(token, data, parseCertificates(other.rootPem)))).toBe("ok");
  });

  it("refuses a token signed by a certificate of the pinned root that is not a TSA's, as OpenSSL does", async () => {
    const data = randomBytes(32);
    const forged = tsa.signedByNonTsa(tsa.tokenOver(data));
    expect(opensslVerifies(tsa, forged, data, tsa.rootPem)).toBe(false);
    const code = await codeOf(verifyTimestampToken(forged, data, parseCertificates(tsa.rootPem)));
    expect(code).toBe("timestamp_invalid");
  });

  it("refuses, at once, a token whose certificates sign each other in a cycle", async () => {
    // B (self-signed) issues A; A's key re-issues B; a time-stamping signer issued by A; the
    // token carries A and the re-issued B: a path builder that does not remember would go round.
    tsa.selfSigned("cycle-b", "Cycle B");
    tsa.issue("cycle-a", "Cycle A", "cycle-b", "v3_ca");
    tsa.issue("cycle-b-again", "Cycle B", "cycle-a", "v3_ca", "cycle-b");
    tsa.issue("cycle-tsa", "Cycle TSA", "cycle-a", "v3_tsa");
    const chain = path.join(tsa.dir, "cycle-chain.pem");
    fs.writeFileSync(chain, ["cycle-a.pem", "cycle-b-again.pem"].map((f) => fs.readFileSync(path.join(tsa.dir, f), "utf8")).join(""));
    const data = randomBytes(32);
    const token = tsa.tokenOver(data, ["-signer", "cycle-tsa.pem", "-inkey", "cycle-tsa.key", "-chain", chain]);
    // A search that followed the cycle would never answer: the test's timeout is the bound.
    expect(await codeOf(verifyTimestampToken(token, data, parseCertificates(tsa.rootPem)))).toBe("timestamp_invalid");
    // Pinning the cycle's own B makes the same token good: the path is signer → A → B.
    expect(
      await codeOf(verifyTimestampToken(token, data, parseCertificates(fs.readFileSync(path.join(tsa.dir, "cycle-b.pem"), "utf8")))),
    ).toBe("ok");
  });

  it("refuses a token with a changed signature or time, and bytes that are no token", async () => {
    const data = randomBytes(32);
    const token = tsa.tokenOver(data);
    const roots = parseCertificates(tsa.rootPem);
    // The last bytes are the signature's; a flipped one breaks it.
    const badSignature = Uint8Array.from(token);
    badSignature[badSignature.length - 3]! ^= 0x01;
    expect(await codeOf(verifyTimestampToken(badSignature, data, roots))).toMatch(/^(timestamp_invalid|malformed_timestamp)$/);
    // The genTime (GeneralizedTime "YYYYMMDDHHMMSSZ") moved a year on: the signed attributes' digest no longer matches.
    const text = Buffer.from(token).toString("latin1");
    const at = text.search(/20\d{12}Z/);
    expect(at).toBeGreaterThan(0);
    const laterTime = Uint8Array.from(token);
    laterTime[at + 3] = laterTime[at + 3]! === 0x39 ? 0x30 : laterTime[at + 3]! + 1;
    expect(await codeOf(verifyTimestampToken(laterTime, data, roots))).toBe("timestamp_invalid");
    expect(await codeOf(verifyTimestampToken(randomBytes(200), data, roots))).toBe("malformed_timestamp");
    expect(await codeOf(verifyTimestampToken(Buffer.concat([token, Buffer.from([0])]), data, roots))).toBe("malformed_timestamp");
    expect(() => parseCertificates("no certificate here")).toThrow(/no PEM certificate/);
  });

  it("states the imprint it checked: the SHA-256 of the bytes", async () => {
    const data = randomBytes(16);
    const token = tsa.tokenOver(data);
    const digest = createHash("sha256").update(data).digest("hex");
    expect(Buffer.from(token).toString("hex")).toContain(digest);
  });
});
