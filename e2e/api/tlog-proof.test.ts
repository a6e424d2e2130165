// @hallmark-test db=sqlite,postgres lane=main witnessing
// Portable proofs (C2SP tlog-proof@v1): downloaded from the API and verified by the CLI with
// nothing but the log's key, or the policy GET /v1/log/policy serves (its witnesses' quorum).
import { spawnSync } from "node:child_process";
import { createHash, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parsePolicy, verifyWitnessedCheckpoint } from "@/lib/verify";
import { parseTlogProof } from "@/lib/verify/tlog-proof";
import { cli } from "../cli";
import { api, attest, expectProblem, logInfo, mint, orgWithIssuer, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-tlog-proof-"));
const verify = (...args: string[]) => spawnSync(...cli("verify", ...args), { encoding: "utf8" });

/** The proof, once the published checkpoint covers the entry (witnessing takes about a second). */
async function witnessedProof(url: string, key?: string) {
  const policy = parsePolicy((await api("/v1/log/policy")).text);
  for (let i = 0; ; i++) {
    const res = await api(url, { key });
    expect(res.status, res.text).toBe(200);
    const cp = verifyWitnessedCheckpoint(parseTlogProof(res.text).checkpoint, policy);
    if (cp.quorum.met || i > 80) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("tlog-proof downloads", () => {
  let policyFile: string;
  let vkey: string;
  beforeAll(async () => {
    policyFile = path.join(dir, "policy.txt");
    fs.writeFileSync(policyFile, (await api("/v1/log/policy")).text);
    vkey = (await logInfo()).verifier_key;
  });

  it("a protection's .tlog-proof verifies with the CLI under the policy, and with the log key alone", async () => {
    const consumer = await seedConsumer();
    const hash = randomContentHash();
    const minted = await mint(consumer.apiKey, { content_hash: hash, title: "Secret title", visibility: "private" });
    expect(minted.status, minted.text).toBe(201);
    // A private protection's proof is its owner's: it carries the opening of the sealed entry.
    expectProblem(await api(`/v1/protections/${minted.body.protection_id}/tlog-proof`), 404, "not_found");
    const res = await witnessedProof(`/v1/protections/${minted.body.protection_id}/tlog-proof`, consumer.apiKey);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${minted.body.protection_id}.tlog-proof"`);
    expect(res.text.startsWith("c2sp.org/tlog-proof@v1\nextra ")).toBe(true);
    expect(res.text).not.toContain("Secret title");
    const file = path.join(dir, "work.tlog-proof");
    fs.writeFileSync(file, res.text);

    const withPolicy = verify(file, "--policy", policyFile);
    expect(withPolicy.status, withPolicy.stderr + withPolicy.stdout).toBe(0);
    expect(withPolicy.stdout).toMatch(/pass witnesses: cosigned by w\d .*quorum any of \(w1, w2\) met/);
    expect(withPolicy.stdout).toContain(`content_hash sha256:${hash}`);
    expect(withPolicy.stdout).toContain("pass seal_opening");
    const withKey = verify(file, "--log-key", vkey);
    expect(withKey.status, withKey.stderr).toBe(0);
    // A verifier that pins only the log's ML-DSA-44 key reads its own line of the same checkpoint
    // (a witnessed checkpoint carries it), and one pinning only the Ed25519 key ignores it.
    const pq = (await logInfo()).ml_dsa_44_verifier_key;
    const withPq = verify(file, "--log-key", pq);
    expect(withPq.status, withPq.stderr + withPq.stdout).toBe(0);
    expect(withPq.stdout).toContain("pass checkpoint_signature");
    const onlyPq = path.join(dir, "only-ml-dsa.txt");
    fs.writeFileSync(onlyPq, `log ${pq}\nquorum none\n`);
    expect(verify(file, "--policy", onlyPq).status).toBe(0);

    const tampered = path.join(dir, "tampered.tlog-proof");
    fs.writeFileSync(
      tampered,
      res.text.replace(/^index (\d+)$/m, (_, n: string) => `index ${Number(n) + 1}`),
    );
    const bad = verify(tampered, "--policy", policyFile);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/FAIL (inclusion_proof_invalid|malformed_tlog_proof)/);
    // A policy whose quorum this checkpoint cannot meet: a witness that never saw it.
    const { publicKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
    const id = createHash("sha256")
      .update("absent.example")
      .update(Buffer.from([0x0a, 0x04]))
      .update(raw)
      .digest()
      .subarray(0, 4)
      .toString("hex");
    const strict = path.join(dir, "strict.txt");
    fs.writeFileSync(
      strict,
      fs
        .readFileSync(policyFile, "utf8")
        .replace(/^quorum .*$/m, `witness w3 absent.example+${id}+${Buffer.concat([Buffer.from([4]), raw]).toString("base64")}\nquorum w3`),
    );
    const unmet = verify(file, "--policy", strict);
    expect(unmet.status, unmet.stderr).toBe(1);
    expect(unmet.stderr).toMatch(/FAIL quorum_not_met: cosigned by w\d.*; the policy requires w3/);
  });

  it("an organisation's attestation .tlog-proof needs its key (another tenant's is not found)", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const made = await attest(key, issuerId);
    const res = await witnessedProof(`/v1/attestations/${made.id}/tlog-proof`, key);
    const file = path.join(dir, "org.tlog-proof");
    fs.writeFileSync(file, res.text);
    expect(verify(file, "--policy", policyFile).status).toBe(0);
    expectProblem(await api(`/v1/attestations/${made.id}/tlog-proof`), 401, "unauthenticated");
    expectProblem(await api(`/v1/attestations/${made.id}/tlog-proof`, { key: (await orgWithIssuer()).key }), 404, "not_found");
    expectProblem(await api(`/v1/protections/${made.id}/tlog-proof`), 404, "not_found");
  });

  it("a proof bundle verifies under the policy too", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const made = await attest(key, issuerId);
    await witnessedProof(`/v1/attestations/${made.id}/tlog-proof`, key);
    const bundle = await api(`/v1/attestations/${made.id}/proof-bundle`, { key });
    const file = path.join(dir, "bundle.json");
    fs.writeFileSync(file, bundle.text);
    const r = verify(file, "--policy", policyFile);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/pass witnesses: .*met/);
  });
});
