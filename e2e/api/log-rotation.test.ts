// Log key rotation without downtime, on a log of its own (a rotation would change the key the
// rest of the suite pins): a server on a fresh SQLite file, with a test witness of its own.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVerifierKey, verifyCheckpoint, verifyProofBundle } from "@/lib/verify";
import { parseSignedNote } from "@/lib/verify/checkpoint";
import { verifyTlogProof } from "@/lib/verify/tlog-proof";
import { TestWitness } from "../witness/test-witness";
import { baseUrl } from "./helpers";
import { orgWithIssuerOn } from "./own-server";
import { assertDescribed } from "./openapi-conformance";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-rotation-"));
const origin = `hallmark-test/rotation-${process.pid}`;
const policyFile = path.join(dir, "policy.txt");
const env = {
  ...process.env,
  DATABASE_URL: `file:${path.join(dir, "hallmark.db")}`,
  HALLMARK_DATA_DIR: dir,
  HALLMARK_LOG_ORIGIN: origin,
  HALLMARK_WITNESS_POLICY: policyFile,
};
delete (env as Record<string, unknown>).HALLMARK_REDIS_URL;

let server: ChildProcess;
let url: string;
const witness = new TestWitness({ name: "witness.test/rotation" });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function get(p: string, key?: string) {
  const res = await fetch(`${url}${p}`, { headers: key ? { "x-api-key": key } : {} });
  expect(res.status, p).toBe(200);
  const text = await res.text();
  await assertDescribed(baseUrl, "GET", p, res.status, res.headers, text);
  return text;
}

async function attest(key: string, issuerId: string) {
  const res = await fetch(`${url}/v1/attestations`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ issuer_id: issuerId, payload: { t: Date.now() } }),
  });
  expect(res.status).toBe(201);
  const text = await res.text();
  await assertDescribed(baseUrl, "POST", "/v1/attestations", res.status, res.headers, text);
  return JSON.parse(text) as { id: string; log_index: number };
}

/** The published (witnessed) checkpoint, once it covers `index` and `ok` holds for it. */
async function publishedAfter(index: number, ok: (note: string) => boolean = () => true): Promise<string> {
  for (let i = 0; i < 150; i++) {
    const note = await get("/v1/log/checkpoint");
    if (Number(note.split("\n")[1]) > index && ok(note)) return note;
    await sleep(100);
  }
  throw new Error(`no published checkpoint past ${index}`);
}

/** The log's Ed25519 signature lines (its ML-DSA-44 line has the same name, and 2,428 bytes). */
const logSignatures = (note: string) =>
  parseSignedNote(note).signatures.filter((s) => s.name === origin && s.signature.length === 64).length;
const keyOf = (vkey: string) => parseVerifierKey(vkey).publicKey;
const admin = (...args: string[]) => execFileSync("npm", ["run", "-s", "admin", "--", ...args], { encoding: "utf8", env });

describe("log key rotation", () => {
  let key: string;
  let issuerId: string;

  beforeAll(async () => {
    const witnessUrl = await witness.listen(0);
    fs.writeFileSync(policyFile, `witness w ${witness.vkey} ${witnessUrl}\nquorum w\n`);
    execFileSync("node", ["scripts/prisma.mjs", "deploy"], { env, stdio: "ignore" });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...env, PORT: String(port), HALLMARK_BASE_URL: url },
      stdio: "ignore",
    });
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`${url}/v1/log`)).ok) break;
      } catch {}
      await sleep(100);
    }
    witness.trust(JSON.parse(await get("/v1/log")).verifier_key);
    ({ key, issuerId } = await orgWithIssuerOn(url, env, "rotation"));
  }, 60_000);

  afterAll(async () => {
    server?.kill("SIGTERM");
    await witness.close();
  });

  it("signs with both keys through the overlap, then the new one only; what the old key signed still verifies", async () => {
    const before = await attest(key, issuerId);
    await publishedAfter(before.log_index);
    const oldVkey = JSON.parse(await get("/v1/log")).verifier_key as string;
    const oldBundle = JSON.parse(await get(`/v1/attestations/${before.id}/proof-bundle`, key));
    const oldProof = await get(`/v1/attestations/${before.id}/tlog-proof`, key);

    const rotated = JSON.parse(admin("rotate-log-key", "--overlap", "30s", "--json"));
    expect(rotated.previous_verifier_key).toBe(oldVkey);
    expect(rotated.verifier_key).not.toBe(oldVkey);
    expect(() => admin("rotate-log-key", "--overlap", "5s")).toThrow(); // shorter than the instances' refresh allows
    witness.trust(rotated.verifier_key); // out of band, as a witness operator would

    // Within the identity's refresh (5 s), checkpoints carry both signatures, and the witness cosigns.
    let during = await attest(key, issuerId);
    let both = "";
    for (let i = 0; i < 30 && !both; i++) {
      both = await publishedAfter(during.log_index).then((n) => (logSignatures(n) === 2 ? n : ""));
      if (!both) {
        await sleep(500);
        during = await attest(key, issuerId);
      }
    }
    expect(verifyCheckpoint(both, { publicKey: keyOf(oldVkey), origin }).treeSize).toBeGreaterThan(during.log_index);
    expect(verifyCheckpoint(both, { publicKey: keyOf(rotated.verifier_key), origin }).treeSize).toBeGreaterThan(during.log_index);
    const bundle = JSON.parse(await get(`/v1/attestations/${during.id}/proof-bundle`, key));
    expect(verifyProofBundle(bundle, { logPublicKey: oldVkey }).ok).toBe(true);
    expect(verifyProofBundle(bundle, { logPublicKey: rotated.verifier_key }).ok).toBe(true);
    const info = JSON.parse(await get("/v1/log"));
    expect(info.verifier_key).toBe(rotated.verifier_key);
    expect(info.keys.map((k: { verifier_key: string; signs_until: string | null }) => [k.verifier_key, k.signs_until])).toEqual([
      [rotated.verifier_key, null],
      [oldVkey, rotated.previous_signs_until],
    ]);
    const policy = await get("/v1/log/policy");
    expect(policy).toContain(`log ${rotated.verifier_key} `);
    expect(policy).toContain(`log ${oldVkey} `);

    // After the overlap (and a refresh), only the new key signs.
    await sleep(Math.max(0, Date.parse(rotated.previous_signs_until) - Date.now()) + 6_000);
    const after = await attest(key, issuerId);
    const single = await publishedAfter(after.log_index);
    expect(logSignatures(single)).toBe(1);
    expect(verifyCheckpoint(single, { publicKey: keyOf(rotated.verifier_key), origin }).treeSize).toBeGreaterThan(after.log_index);
    expect(() => verifyCheckpoint(single, { publicKey: keyOf(oldVkey), origin })).toThrow();
    expect(await get("/v1/log/policy")).not.toContain(oldVkey);

    // What the old key signed still verifies with it.
    expect(verifyProofBundle(oldBundle, { logPublicKey: oldVkey }).ok).toBe(true);
    expect(verifyTlogProof(oldProof, { logPublicKey: keyOf(oldVkey), origin }).index).toBe(before.log_index);
    // The audit checks every checkpoint under the key that signed it.
    expect(execFileSync("npm", ["run", "-s", "audit-log"], { encoding: "utf8", env })).toMatch(/checkpoints/);
  }, 90_000);
});
