// @hallmark-test db=sqlite lane=main
// Time that does not depend on Hallmark's clock: with HALLMARK_TSA_URL (the suite's SQLite run
// points it at a real RFC 3161 TSA, e2e/tsa), checkpoints are time-stamped off the write path and
// proof bundles carry the token of the earliest stamped checkpoint holding their entry. The CLI
// checks it against the pinned TSA root, OpenSSL's `ts -verify` agrees, and a TSA that is down or
// answers wrongly holds up nothing and gets nothing stored.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { TestTsa } from "@/e2e/tsa/test-tsa";
import { verifyProofBundle } from "@/lib/verify";
import { verifyBundleTimestamp } from "@/lib/verify/bundle-timestamp";
import { parseCertificates } from "@/lib/verify/rfc3161";
import { cli } from "../cli";
import { api, eventually, logKey, mint, randomContentHash } from "./helpers";
import { itWhere } from "./only-where";
import { seedConsumer } from "../accounts";

const testTsa = process.env.HALLMARK_TEST_TSA ? (JSON.parse(process.env.HALLMARK_TEST_TSA) as { url: string; root_pem: string }) : null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-timestamp-"));
const verify = (...args: string[]) => spawnSync(...cli("verify", ...args), { encoding: "utf8" });
const withTsa = itWhere(testTsa !== null, "needs the test TSA, which the SQLite run starts (HALLMARK_TEST_TSA)");
const setMode = (mode: string) => fetch(`${testTsa!.url}_test/mode`, { method: "POST", body: mode });

/** A private protection: its entry is sealed, so the time-stamp's inclusion proof is of the sealed leaf. */
async function minted() {
  const { apiKey } = await seedConsumer();
  const res = await mint(apiKey, { content_hash: randomContentHash(), visibility: "private" });
  expect(res.status, res.text).toBe(201);
  return { ...(res.body as { protection_id: string; protected_at: string }), apiKey };
}

/** The protection's bundle (its owner's), once it carries a timestamp (within `ms`), else the last one seen. */
async function bundleWithTimestamp(p: { protection_id: string; apiKey: string }, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api(`/v1/protections/${p.protection_id}/proof-bundle`, { key: p.apiKey });
    expect(res.status).toBe(200);
    if (res.body.timestamp || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

let other: TestTsa;
let logPem: string;
beforeAll(async () => {
  other = new TestTsa({ name: "Some Other TSA" });
  logPem = path.join(dir, "log.pem");
  fs.writeFileSync(logPem, await logKey());
});
afterAll(async () => {
  await setMode("ok").catch(() => {});
  await other.close();
});

describe("RFC 3161 timestamps", () => {
  withTsa("a bundle carries a TSA token over a checkpoint holding its entry, which the CLI and OpenSSL verify", async () => {
    await setMode("ok");
    const p = await minted();
    const bundle = await bundleWithTimestamp(p);
    expect(bundle.timestamp, "no timestamp within 20 s").toBeDefined();
    expect(verifyProofBundle(bundle, { logPublicKey: await logKey() }).ok).toBe(true);
    const roots = parseCertificates(fs.readFileSync(testTsa!.root_pem, "utf8"));
    const t = await verifyBundleTimestamp(bundle, { logPublicKey: await logKey(), tsaCertificates: roots });
    expect(t!.tsa).toBe("Hallmark Test TSA");
    expect(t!.treeSize).toBeGreaterThan(bundle.attestation.log_index);
    // The bundle's JSON text reads the same as the object.
    expect(await verifyBundleTimestamp(JSON.stringify(bundle), { logPublicKey: await logKey(), tsaCertificates: roots })).toEqual(t);
    // The TSA's clock, in whole seconds: no earlier than the second the entry was made, and not in the future.
    expect(t!.existedBy.getTime()).toBeGreaterThanOrEqual(Math.floor(Date.parse(p.protected_at) / 1000) * 1000);
    expect(t!.existedBy.getTime()).toBeLessThanOrEqual(Date.now());

    const file = path.join(dir, `${p.protection_id}.json`);
    fs.writeFileSync(file, JSON.stringify(bundle));
    const ok = verify(file, "--log-key", logPem, "--tsa-cert", testTsa!.root_pem);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`pass timestamp: the entry existed no later than ${t!.existedBy.toISOString()}, per Hallmark Test TSA`);
    const without = verify(file, "--log-key", logPem);
    expect(without.status).toBe(0);
    expect(without.stdout).toContain("note timestamp: the bundle carries an RFC 3161 timestamp");

    // OpenSSL, on its own, agrees the token is over the checkpoint's bytes and chains to the root.
    fs.writeFileSync(path.join(dir, "checkpoint.txt"), bundle.timestamp.checkpoint);
    fs.writeFileSync(path.join(dir, "token.der"), Buffer.from(bundle.timestamp.token, "base64"));
    const openssl = spawnSync(
      "openssl",
      ["ts", "-verify", "-token_in", "-in", "token.der", "-data", "checkpoint.txt", "-CAfile", testTsa!.root_pem],
      { cwd: dir, encoding: "utf8" },
    );
    expect(openssl.stdout + openssl.stderr).toContain("Verification: OK");

    // The certificate states the time and carries the token in its attached bundle.
    const pdf = path.join(dir, `${p.protection_id}.pdf`);
    fs.writeFileSync(
      pdf,
      Buffer.from(
        await (
          await fetch(`${process.env.HALLMARK_TEST_BASE_URLS!.split(",")[0]}/v1/protections/${p.protection_id}/certificate.pdf`, {
            headers: { "x-api-key": p.apiKey },
          })
        ).arrayBuffer(),
      ),
    );
    const cert = verify(pdf, "--log-key", logPem, "--tsa-cert", testTsa!.root_pem);
    expect(cert.status, cert.stdout + cert.stderr).toBe(0);
    expect(cert.stdout).toContain("pass timestamp");
    const text = spawnSync("pdftotext", [pdf, "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain("per Hallmark Test TSA");
  });

  withTsa("fails a timestamp that another TSA would have to vouch for, or that was changed", async () => {
    await setMode("ok");
    const p = await minted();
    const bundle = await bundleWithTimestamp(p);
    expect(bundle.timestamp).toBeDefined();
    const check = (b: unknown, tsaCert = testTsa!.root_pem) => {
      const file = path.join(dir, `check-${Math.random().toString(36).slice(2)}.json`);
      fs.writeFileSync(file, JSON.stringify(b));
      return verify(file, "--log-key", logPem, "--tsa-cert", tsaCert);
    };
    const otherRoot = path.join(dir, "other-root.pem");
    fs.writeFileSync(otherRoot, other.rootPem);
    const wrongTsa = check(bundle, otherRoot);
    expect(wrongTsa.status).toBe(1);
    expect(wrongTsa.stderr).toContain("FAIL timestamp_invalid");

    const token = Buffer.from(bundle.timestamp.token, "base64");
    token[token.length - 5]! ^= 0x01;
    const changedToken = check({ ...bundle, timestamp: { ...bundle.timestamp, token: token.toString("base64") } });
    expect(changedToken.status).toBe(1);
    expect(changedToken.stderr).toMatch(/FAIL (timestamp_invalid|malformed_timestamp)/);

    // The stamped checkpoint with another root: the log never signed it, and the token is not over it.
    const lines = bundle.timestamp.checkpoint.split("\n");
    lines[2] = Buffer.alloc(32, 7).toString("base64");
    const changedCheckpoint = check({ ...bundle, timestamp: { ...bundle.timestamp, checkpoint: lines.join("\n") } });
    expect(changedCheckpoint.status).toBe(1);
    expect(changedCheckpoint.stderr).toMatch(/FAIL (checkpoint_signature_invalid|timestamp_invalid)/);
  });

  withTsa(
    "goes on without a TSA that is down or answers wrongly, stores nothing from it, and stamps again when it is back",
    async () => {
      // A TSA that never answers: mints are answered while the first stamping request the log sent
      // it is still open, so none of them waited for it (not even until the log gave up on it).
      await setMode("hold");
      const held = async () => ((await (await fetch(`${testTsa!.url}_test/seen`)).json()) as { held: number[] }).held;
      await minted();
      const [first] = await eventually(held, (h) => h.length > 0);
      for (let i = 0; i < 3; i++) await minted();
      expect(await held(), "the log still waits on its first request to the TSA").toContain(first);
      for (const mode of ["down", "wrong-imprint", "garbage", "reject"]) {
        await setMode(mode);
        const p = await minted();
        // Two rounds' worth: nothing the TSA answered is stored, so the new entry has no timestamp.
        const bundle = await bundleWithTimestamp(p, 2_500);
        expect(bundle.timestamp, `the TSA ${mode}`).toBeUndefined();
        expect(verifyProofBundle(bundle, { logPublicKey: await logKey() }).ok).toBe(true);
      }
      await setMode("ok");
      const p = await minted();
      // Back-off after four failed rounds is at most 16 s.
      expect((await bundleWithTimestamp(p, 30_000)).timestamp).toBeDefined();
    },
    90_000,
  );
});
