// @hallmark-test db=sqlite,postgres lane=second-server
// npm run monitor follows the log through its tiles alone, from size 0, then from its state.
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { verifierKey } from "@/lib/verify/checkpoint";
import { cli } from "../cli";
import { api, attest, baseUrl, logInfo, orgWithIssuer } from "./helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-monitor-"));
const monitor = (...args: string[]) => spawnSync(...cli("monitor", baseUrl, ...args), { encoding: "utf8" });

describe("npm run monitor", () => {
  let vkey: string;
  let policyFile: string;
  beforeAll(async () => {
    vkey = (await logInfo()).verifier_key;
    policyFile = path.join(dir, "policy.txt");
    fs.writeFileSync(policyFile, (await api("/v1/log/policy")).text);
  });

  it("rebuilds the tree from size 0, checks the quorum, then follows it from its state and watches an issuer", async () => {
    const { key, issuerId } = await orgWithIssuer();
    await attest(key, issuerId);
    const state = path.join(dir, "state.json");
    const first = monitor("--vkey", vkey, "--policy", policyFile, "--state", state);
    expect(first.status, first.stderr + first.stdout).toBe(0);
    expect(first.stdout).toMatch(/quorum any of \(w1, w2\) met/);
    expect(first.stdout).toMatch(/OK size \d+ rebuilt from the first entry: consistent/);
    const seen = JSON.parse(fs.readFileSync(state, "utf8")).size as number;

    const hidden = await api("/v1/attestations", {
      key,
      json: { issuer_id: issuerId, payload: { content_hash: "d".repeat(64) }, sealed: true },
    });
    expect(hidden.status, hidden.text).toBe(201);
    const watched = await attest(key, issuerId, { content_hash: "c".repeat(64) });
    // Published once witnessed: wait (bounded) for the checkpoint that covers it, however slow the machine.
    const published = async () => Number((await api("/v1/log/checkpoint")).text.split("\n")[1]);
    for (let i = 0; i < 300 && (await published()) <= watched.log_index; i++) await new Promise((r) => setTimeout(r, 100));
    const second = monitor("--vkey", vkey, "--policy", policyFile, "--state", state, "--watch-issuer", issuerId);
    expect(second.status, second.stderr + second.stdout).toBe(0);
    expect(second.stdout).toContain(`OK size`);
    expect(second.stdout).toContain(`extends size ${seen} seen before`);
    expect(second.stdout).toContain(`attestation ${watched.id} by issuer ${issuerId} content_hash ${"c".repeat(64)}`);
    // The sealed one is checked like every entry, counted, and not shown as the watched issuer's.
    expect(second.stdout).toMatch(/; [1-9]\d* sealed; /);
    expect(second.stdout).not.toContain(hidden.body.id);

    // A state the log does not extend: another root for the size seen, or a larger size.
    const s = JSON.parse(fs.readFileSync(state, "utf8"));
    const forked = path.join(dir, "forked.json");
    fs.writeFileSync(
      forked,
      JSON.stringify({
        ...s,
        subtrees: [{ level: 0, hash: Buffer.alloc(32, 7).toString("base64") }, ...s.subtrees.slice(1)],
        root: undefined,
      }),
    );
    expect(monitor("--vkey", vkey, "--state", forked).status).toBe(1);
    const ahead = path.join(dir, "ahead.json");
    fs.writeFileSync(ahead, JSON.stringify({ ...s, size: s.size + 1_000_000 }));
    const r = monitor("--vkey", vkey, "--state", ahead);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/INCONSISTENT .*shrank/);
  }, 60_000);

  it("refuses a checkpoint that another key signed for the origin (1), and a malformed key (2)", async () => {
    const raw = new Uint8Array(generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32));
    const other = monitor("--vkey", verifierKey((await logInfo()).origin, raw));
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/INCONSISTENT checkpoint_signature_invalid/);
    expect(monitor("--vkey", "not-a-key").status).toBe(2);
  });
});
