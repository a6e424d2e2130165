// @hallmark-test db=sqlite lane=side-own-logs witnessing
// Witnessing over time, on a log of its own (idle unless this file writes, so each witness
// exchange is the one the test caused), with two test witnesses in this process (e2e/witness:
// C2SP tlog-witness, every answer of the spec): proofs handed out meet the policy or say they do
// not yet; a lost 200 is recovered by resubmission at the witness's own size; a 422 is raised and
// kept as evidence; an idle log's newest checkpoint reaches every witness, and is sent again so its
// cosignatures stay fresh; the two modes of publication (fail-closed, fail-open).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parsePolicy, verifyWitnessedCheckpoint } from "@/lib/verify";
import { verifyTlogProof } from "@/lib/verify/tlog-proof";
import { TestWitness } from "../witness/test-witness";
import { assertDescribed } from "./openapi-conformance";
import { cli } from "../cli";
import { eventually } from "./helpers";
import { OwnServer, orgWithIssuerOn, ownSqliteEnv, sleep } from "./own-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-witnessing-"));
const policyFile = path.join(dir, "policy.txt");
const env: NodeJS.ProcessEnv = { ...ownSqliteEnv(dir, "witnessing"), HALLMARK_WITNESS_POLICY: policyFile };
const w1 = new TestWitness({ name: "witness.test/own-w1" });
const w2 = new TestWitness({ name: "witness.test/own-w2", algorithm: "ml-dsa-44" });
let server: OwnServer;
let key: string;
let issuerId: string;
let vkey: string;
let origin: string;

async function start(extra: Record<string, string> = {}) {
  server = await OwnServer.start({ ...env, ...extra });
  await server.ready();
}

async function get(p: string, opts: { key?: string } = {}) {
  const res = await fetch(`${server.url}${p}`, { headers: opts.key ? { "x-api-key": opts.key } : {} });
  const text = await res.text();
  await assertDescribed(server.url, "GET", p.split("?")[0]!, res.status, res.headers, text);
  return { status: res.status, headers: res.headers, text };
}

async function attest() {
  const res = await fetch(`${server.url}/v1/attestations`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ issuer_id: issuerId, payload: { t: `${Date.now()}-${Math.random()}` } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; log_index: number };
}

const witnessing = async () =>
  JSON.parse((await get("/v1/log")).text).witnessing as {
    mode: string;
    published_tree_size: number;
    witnessed_tree_size: number;
    witnesses: { name: string; cosigned_tree_size: number | null; failures: number }[];
  };

const admin = async (...args: string[]) => (await promisify(execFile)(...cli("admin", ...args), { encoding: "utf8", env })).stdout;

beforeAll(async () => {
  const [u1, u2] = await Promise.all([w1.listen(0), w2.listen(0)]);
  fs.writeFileSync(
    policyFile,
    `witness w1 ${w1.vkey} ${u1}\nwitness w2 ${w2.vkey} ${u2}\ngroup any-witness any w1 w2\nquorum any-witness\n`,
  );
  await promisify(execFile)("node", ["scripts/prisma.mjs", "deploy"], { env });
  await start();
  ({ verifier_key: vkey, origin } = JSON.parse((await get("/v1/log")).text));
  ({ key, issuerId } = await orgWithIssuerOn(server.url, env, "witnessing"));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([w1.close(), w2.close()]);
});

describe("witnessing over time", () => {
  // A failed test leaves no witness down for the next.
  afterEach(() => {
    w1.mode = "normal";
    w2.mode = "normal";
  });

  it("fail-closed: before any checkpoint is cosigned, /checkpoint answers 503 not_yet_witnessed, never an unwitnessed one", async () => {
    // Neither witness trusts the log's key yet: both answer 404.
    const before = await get("/v1/log/checkpoint");
    expect(before.status, before.text).toBe(503);
    expect(JSON.parse(before.text).code).toBe("not_yet_witnessed");
    expect(before.headers.get("retry-after")).toBe("2");
    w1.trust(vkey);
    w2.trust(vkey);
    const cp = await eventually(
      () => get("/v1/log/checkpoint"),
      (r) => r.status === 200,
      20_000,
    );
    expect(verifyWitnessedCheckpoint(cp.text, parsePolicy((await get("/v1/log/policy")).text)).quorum.met).toBe(true);
  });

  it("a proof fetched the moment an attestation answers is cosigned: it verifies under the quorum policy", async () => {
    const policy = parsePolicy((await get("/v1/log/policy")).text);
    for (let i = 0; i < 3; i++) {
      const made = await attest();
      const [proof, bundle] = await Promise.all([
        get(`/v1/attestations/${made.id}/tlog-proof`, { key }),
        get(`/v1/attestations/${made.id}/proof-bundle`, { key }),
      ]);
      expect(proof.status, proof.text).toBe(200);
      expect(proof.headers.get("hallmark-witnessed")).toBe("true");
      const v = verifyTlogProof(proof.text, { policy });
      expect(v.index).toBe(made.log_index);
      expect(v.cosigners.length).toBeGreaterThan(0);
      expect(bundle.status).toBe(200);
      expect(verifyWitnessedCheckpoint(JSON.parse(bundle.text).signed_tree_head.checkpoint, policy).quorum.met).toBe(true);
    }
  });

  it("with no witness answering, a fresh proof waits, then says 503 not_yet_witnessed with Retry-After; asked for, the unwitnessed one is served and marked; back up, it verifies", async () => {
    const policy = parsePolicy((await get("/v1/log/policy")).text);
    w1.mode = "down";
    w2.mode = "down";
    const witnessedBefore = (await witnessing()).witnessed_tree_size;
    const made = await attest();
    const t0 = Date.now();
    const refused = await get(`/v1/attestations/${made.id}/tlog-proof`, { key });
    const waited = Date.now() - t0;
    expect(refused.status, refused.text).toBe(503);
    expect(JSON.parse(refused.text)).toMatchObject({ code: "not_yet_witnessed", status: 503 });
    expect(refused.headers.get("retry-after")).toBe("2");
    // It waited for a witnessing round (the server's few seconds) before saying so, and answered
    // while both witnesses were still down: it does not wait for them to come back.
    expect(waited).toBeGreaterThan(2_000);
    const asIs = await get(`/v1/attestations/${made.id}/tlog-proof?witnessed=optional`, { key });
    expect(asIs.status).toBe(200);
    expect(asIs.headers.get("hallmark-witnessed")).toBe("false");
    expect(() => verifyTlogProof(asIs.text, { policy })).toThrow(/cosigned by no witness/);
    // /checkpoint keeps serving the last checkpoint the quorum cosigned (fail-closed).
    const served = await get("/v1/log/checkpoint");
    expect(Number(served.text.split("\n")[1])).toBe(witnessedBefore);
    w1.mode = "normal";
    w2.mode = "normal";
    const proof = await eventually(
      async () => {
        await sleep(2_000); // Retry-After
        return get(`/v1/attestations/${made.id}/tlog-proof`, { key });
      },
      (r) => r.status === 200,
      60_000,
    );
    expect(proof.headers.get("hallmark-witnessed")).toBe("true");
    expect(verifyTlogProof(proof.text, { policy }).index).toBe(made.log_index);
  }, 90_000);

  it("a witness whose 200 was lost is asked again at the size it holds, and its cosignature is recovered", async () => {
    await eventually(witnessing, (s) => s.witnesses.every((w) => w.failures === 0), 60_000);
    w2.mode = "down";
    w1.mode = "lose-next";
    const made = await attest();
    const lost = await eventually(
      async () => w1.submissions.find((s) => s.lost && s.size > made.log_index),
      (s) => s !== undefined && s.status === 200,
      20_000,
    );
    // The witness holds the size it never got to answer for; Hallmark, told by a 409, resubmits
    // that size with old = size and gets the cosignature again (C2SP tlog-witness).
    await eventually(
      async () => w1.submissions.filter((s) => !s.lost && s.old === lost!.size && s.size === lost!.size),
      (r) => r.some((s) => s.status === 200),
      20_000,
    );
    expect(w1.submissions.some((s) => s.status === 409 && s.size === lost!.size)).toBe(true);
    const policy = parsePolicy((await get("/v1/log/policy")).text);
    const proof = await get(`/v1/attestations/${made.id}/tlog-proof`, { key });
    expect(proof.status).toBe(200);
    expect(verifyTlogProof(proof.text, { policy }).cosigners.map((c) => c.witness)).toContain("w1");
    w2.mode = "normal";
  }, 90_000);

  it("an idle log's newest checkpoint is offered again until every witness has cosigned it", async () => {
    w2.mode = "down";
    const made = await attest();
    await eventually(witnessing, (s) => s.witnesses[1]!.failures > 0, 20_000);
    w2.mode = "normal";
    // No write since: the same checkpoint is offered again until w2 has it.
    const s = await eventually(witnessing, (v) => (v.witnesses[1]!.cosigned_tree_size ?? 0) > made.log_index, 40_000);
    expect(s.witnesses[1]!.failures).toBe(0);
  }, 60_000);

  it("a 422 is raised (log line, metric, admin witnesses) and kept as evidence; the witness is not counted", async () => {
    w1.forkView();
    const made = await attest();
    const evidence = await eventually(
      async () => JSON.parse(await admin("witnesses", "--json")).evidence as { witness: string; tree_size: number; status: number }[],
      (e) => e.some((x) => x.witness === "w1"),
      20_000,
    );
    expect(evidence.find((x) => x.witness === "w1")).toMatchObject({ status: 422 });
    expect(evidence[0]!.tree_size).toBeGreaterThan(made.log_index);
    expect(await admin("witnesses")).toMatch(/ALERT: w1 answered 422 to checkpoint \d+/);
    expect(server.lines.some((l) => /ALERT: a witness answered 422/.test(l.msg) && l.witness === "w1")).toBe(true);
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${env.HALLMARK_METRICS_TOKEN}` } });
    expect(await metrics.text()).toMatch(/hallmark_witness_alerts_total\{witness="w1",kind="inconsistent"\} [1-9]/);
    // The public answer says nothing of it.
    expect((await get("/v1/log")).text).not.toContain("evidence");
    // w2 alone is a quorum: the proof verifies, cosigned by w2 only.
    const proof = await get(`/v1/attestations/${made.id}/tlog-proof`, { key });
    expect(
      verifyTlogProof(proof.text, { policy: parsePolicy((await get("/v1/log/policy")).text) }).cosigners.map((c) => c.witness),
    ).toEqual(["w2"]);
    // A witness that starts afresh (forgets the fork) cosigns again: from 0, as a 409 tells.
    w1.forget();
    await eventually(
      witnessing,
      (s) => s.witnesses[0]!.failures === 0 && (s.witnesses[0]!.cosigned_tree_size ?? 0) > made.log_index,
      40_000,
    );
  }, 90_000);

  it("prints this log's item for the witness network's log list (logs/v0), with the declared rate", async () => {
    const run = (rate: string, ...args: string[]) =>
      promisify(execFile)(...cli("admin", "witness-network-entry", ...args), {
        encoding: "utf8",
        env: { ...env, HALLMARK_WITNESS_RATE: rate },
      });
    const { stdout } = await run("8640", "--contact", "ops (at) witnessing.example.org");
    // The list format: comments, then vkey, [origin], qpd, contact in that order.
    const items = stdout.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
    expect(items).toEqual([`vkey ${vkey}`, "qpd 8640", "contact ops (at) witnessing.example.org"]);
    expect(stdout).toMatch(/at most every 10 s per witness/);
    await expect(run("86400")).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --contact/) });
  });

  it("an idle log's newest checkpoint is sent again within the refresh time, and the fresh cosignatures are the ones served", async () => {
    await server.stop();
    await start({ HALLMARK_WITNESS_REFRESH: "2" });
    const policy = parsePolicy((await get("/v1/log/policy")).text);
    const made = await attest();
    const cosigned = (r: { status: number; text: string }) =>
      r.status === 200 &&
      Number(r.text.split("\n")[1]) > made.log_index &&
      verifyWitnessedCheckpoint(r.text, policy).cosigners.length === 2;
    const first = await eventually(() => get("/v1/log/checkpoint"), cosigned, 20_000);
    const times = (r: { text: string }) =>
      Object.fromEntries(verifyWitnessedCheckpoint(r.text, policy).cosigners.map((c) => [c.witness, c.timestamp]));
    const before = times(first);
    const asked = w1.submissions.length;
    // No write since: the same checkpoint, cosigned again by each witness with a later time.
    const later = await eventually(
      () => get("/v1/log/checkpoint"),
      (r) => cosigned(r) && Object.entries(times(r)).every(([w, t]) => t > before[w]!),
      20_000,
    );
    expect(later.text.split("\n").slice(0, 3)).toEqual(first.text.split("\n").slice(0, 3));
    const again = w1.submissions.slice(asked).filter((x) => x.origin === origin && x.status === 200);
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((x) => x.old === x.size)).toBe(true);
  }, 60_000);

  it("fail-open: /checkpoint serves the newest checkpoint with the cosignatures it has, and /v1/log says how far the quorum is", async () => {
    await server.stop();
    await start({ HALLMARK_WITNESS_MODE: "fail-open" });
    w1.mode = "down";
    w2.mode = "down";
    const made = await attest();
    const served = await eventually(
      () => get("/v1/log/checkpoint"),
      (r) => r.status === 200 && Number(r.text.split("\n")[1]) > made.log_index,
      20_000,
    );
    expect(served.text.split("\n")[0]).toBe(origin);
    const s = await witnessing();
    expect(s.mode).toBe("fail-open");
    expect(s.published_tree_size).toBeGreaterThan(made.log_index);
    expect(s.witnessed_tree_size).toBeLessThanOrEqual(made.log_index);
    // Proofs still meet the policy, or say they do not yet.
    expect((await get(`/v1/attestations/${made.id}/proof-bundle`, { key })).status).toBe(503);
    w1.mode = "normal";
    w2.mode = "normal";
  }, 90_000);
});
