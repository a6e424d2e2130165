// @hallmark-test db=sqlite,postgres lane=main
// Issue 3's "done means", as one consumer lives it: sign up, follow the e-mailed link, log in,
// mint with the session, see the protection first in the list, and verify its proof bundle
// offline with the CLI and nothing but the log's key.
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../cli";
import { api, logKey } from "./helpers";
import { verificationLink, waitForMail } from "./mail";

describe("a consumer's first protection", () => {
  it("signs up, verifies, logs in, mints with the session, lists it first, and verifies it offline", async () => {
    const email = `journey-${randomUUID().slice(0, 8)}@example.org`;
    const password = "a long enough passphrase";
    expect((await api("/v1/consumer/signup", { json: { email, password, name: "Journey" } })).status).toBe(202);
    const { token } = verificationLink((await waitForMail(email)).at(-1)!);
    expect((await api("/v1/consumer/verify-email", { json: { token, password } })).status).toBe(200);

    const login = await api("/v1/consumer/login", { json: { email, password } });
    expect(login.status, login.text).toBe(200);
    const auth = { authorization: `Bearer ${login.body.session_token}` };

    // An earlier protection, so "first in the list" means newest first.
    const older = await api("/v1/consumer/mint", { headers: auth, json: { content_hash: "a".repeat(64) } });
    expect(older.status, older.text).toBe(201);
    const hash = createHash("sha256").update(`the file's bytes ${randomUUID()}`).digest("hex");
    const minted = await api("/v1/consumer/mint", {
      headers: auth,
      json: { content_hash: `sha256:${hash}`, title: "My work", visibility: "public" },
    });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body).toMatchObject({ status: "protected", content_hash: hash });

    const list = await api("/v1/consumer/protections", { headers: auth });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items[0]).toMatchObject({
      protection_id: minted.body.protection_id,
      id: minted.body.attestation_id,
      title: "My work",
    });

    const bundle = await api(`/v1/consumer/protections/${minted.body.protection_id}/proof-bundle`, { headers: auth });
    expect(bundle.status, bundle.text).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-journey-"));
    fs.writeFileSync(path.join(dir, "bundle.json"), bundle.text);
    fs.writeFileSync(path.join(dir, "log.pem"), await logKey());
    const verify = (file: string) =>
      execFileSync(...cli("verify", path.join(dir, file), "--log-key", path.join(dir, "log.pem")), { encoding: "utf8" });
    expect(verify("bundle.json")).toMatch(/^OK attestation at log index \d+/m);
    // The same proof through the attestation's own route, which a consumer reads for its own mints.
    const byAttestation = await api(`/v1/attestations/${minted.body.attestation_id}/proof-bundle`, { headers: auth });
    expect(byAttestation.status, byAttestation.text).toBe(200);
    fs.writeFileSync(path.join(dir, "by-attestation.json"), byAttestation.text);
    expect(verify("by-attestation.json")).toMatch(/^OK attestation at log index \d+/m);

    // And the CLI is not a rubber stamp: a bundle for another hash fails, with a reason.
    fs.writeFileSync(path.join(dir, "forged.json"), bundle.text.replace(hash, "b".repeat(64)));
    expect(() => verify("forged.json")).toThrow(/FAIL inclusion_proof_invalid/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
