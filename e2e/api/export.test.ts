// @hallmark-test db=sqlite,postgres lane=second-server
// GET /v1/consumer/export: an account's protections with their proofs, the log's keys and policy
// and a README, as a streamed zip whose every proof the CLI verifies offline, file by file.
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePolicy, verifyWitnessedCheckpoint } from "@/lib/verify";
import { parseTlogProof } from "@/lib/verify/tlog-proof";
import { cli } from "../cli";
import { api, baseUrl, expectProblem, mint, randomContentHash, sessionToken } from "./helpers";
import { verdict } from "./verdict";
import { seedConsumer, seedOrg } from "../accounts";

/** `npm run verify`, as the export's README says; the runs of one test go side by side. */
const verify = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(...cli("verify", ...args), { encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

/** Waits until the published checkpoint covering this protection has its witnesses' quorum. */
async function witnessed(protectionId: string, key: string) {
  const policy = parsePolicy((await api("/v1/log/policy")).text);
  for (let i = 0; i < 100; i++) {
    // A private protection's proof is its owner's alone: asked with the owner's key.
    const res = await api(`/v1/protections/${protectionId}/tlog-proof`, { key });
    if (verifyWitnessedCheckpoint(parseTlogProof(res.text).checkpoint, policy).quorum.met) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`protection ${protectionId} was not witnessed in 10 s`);
}

/** Downloads the export and unpacks it with unzip (an independent reader), answering its directory. */
async function download(headers: Record<string, string>) {
  const res = await fetch(`${baseUrl}/v1/consumer/export`, { headers });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="hallmark-export-\d{4}-\d{2}-\d{2}\.zip"$/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-export-"));
  const zip = path.join(dir, "export.zip");
  fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
  const test = spawnSync("unzip", ["-t", zip], { encoding: "utf8" });
  expect(test.status, test.stdout + test.stderr).toBe(0);
  const out = path.join(dir, "out");
  expect(spawnSync("unzip", ["-q", zip, "-d", out]).status).toBe(0);
  return out;
}

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();

describe("export", () => {
  it("holds every protection of the account, and only those, each verifying offline with the CLI", async () => {
    const owner = await seedConsumer({ plan: "creator" });
    const other = await seedConsumer();
    const ids: string[] = [];
    for (const visibility of ["public", "private", "private"]) {
      const res = await mint(owner.apiKey, {
        content_hash: randomContentHash(),
        title: `Work ${visibility}`,
        file_name: "w.txt",
        visibility,
      });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.protection_id);
    }
    const foreign = (await mint(other.apiKey, { content_hash: randomContentHash(), visibility: "public" })).body.protection_id;
    for (const id of ids) await witnessed(id, owner.apiKey);

    const out = await download({ "x-api-key": owner.apiKey });
    expect(filesUnder(out)).toEqual(
      [
        "README.txt",
        "log/log.pem",
        "log/policy.txt",
        "log/verifier-key.txt",
        ...ids.flatMap((id) => [
          `protections/${id}/${id}.tlog-proof`,
          `protections/${id}/certificate.pdf`,
          `protections/${id}/proof-bundle.json`,
          `protections/${id}/protection.json`,
        ]),
      ].sort(),
    );
    expect(fs.existsSync(path.join(out, "protections", foreign))).toBe(false);
    const log = (await api("/v1/log")).body;
    expect(fs.readFileSync(path.join(out, "log/verifier-key.txt"), "utf8")).toBe(`${log.verifier_key}\n`);
    expect(fs.readFileSync(path.join(out, "log/policy.txt"), "utf8")).toBe((await api("/v1/log/policy")).text);
    const readme = fs.readFileSync(path.join(out, "README.txt"), "utf8");
    expect(readme).toContain("npm run verify -- protections/<id>/proof-bundle.json --log-key log/log.pem");
    expect(readme).toContain("npm run verify -- protections/<id>/certificate.pdf --log-key log/log.pem");

    // The README's commands, run as written for the first protection; the others' files reach the
    // same verification in this process.
    const checks = ids.map(async (id, i) => {
      const dir = path.join(out, "protections", id);
      const item = JSON.parse(fs.readFileSync(path.join(dir, "protection.json"), "utf8"));
      expect(item.protection_id).toBe(id);
      expect(item.file_name).toBe("w.txt");
      const bundle = path.join(dir, "proof-bundle.json");
      expect(JSON.parse(fs.readFileSync(bundle, "utf8")).attestation.payload.content_hash).toBe(`sha256:${item.content_hash}`);
      const [logKey, policy] = [path.join(out, "log/log.pem"), path.join(out, "log/policy.txt")];
      if (i > 0) {
        expect(await verdict(bundle, { logKey })).toBe("OK");
        expect(await verdict(path.join(dir, `${id}.tlog-proof`), { policy })).toBe("OK");
        expect(await verdict(path.join(dir, "certificate.pdf"), { logKey })).toBe("OK");
        return;
      }
      const [byKey, byPolicy, certificate] = await Promise.all([
        verify(bundle, "--log-key", logKey),
        verify(path.join(dir, `${id}.tlog-proof`), "--policy", policy),
        verify(path.join(dir, "certificate.pdf"), "--log-key", logKey),
      ]);
      expect(byKey.status, byKey.stdout + byKey.stderr).toBe(0);
      expect(byPolicy.status, byPolicy.stdout + byPolicy.stderr).toBe(0);
      expect(byPolicy.stdout).toContain("quorum");
      expect(certificate.status, certificate.stdout + certificate.stderr).toBe(0);
      expect(certificate.stdout).toContain("pass certificate_text");
    });
    await Promise.all(checks);
  });

  it("answers a session (the dashboard's button) as it answers the account's key, and an empty account with the log's files alone", async () => {
    const fresh = await seedConsumer();
    const token = await sessionToken(fresh.email, fresh.password);
    const out = await download({ authorization: `Bearer ${token}` });
    expect(filesUnder(out)).toEqual(["README.txt", "log/log.pem", "log/policy.txt", "log/verifier-key.txt"]);
    expect(fs.readFileSync(path.join(out, "README.txt"), "utf8")).toContain("0 protection(s)");
  });

  it("is refused without credentials, and to an organisation's key", async () => {
    expectProblem(await api("/v1/consumer/export"), 401, "unauthenticated");
    expectProblem(await api("/v1/consumer/export", { key: (await seedOrg()).apiKey }), 403, "insufficient_scope");
  });
});
