// @hallmark-test db=sqlite,postgres lane=second-server witnessing
// Witnessing (C2SP tlog-witness and tlog-cosignature) against the test witnesses the suite
// starts (e2e/witness: w1 Ed25519, w2 ML-DSA-44, either one a quorum), and the witness protocol's
// every answer against a witness of this test's own, fed with the log's real checkpoints.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parsePolicy,
  parsePublicKeyPem,
  verifyProofBundle,
  verifyWitnessedCheckpoint,
  type Policy,
  type WitnessedCheckpoint,
} from "@/lib/verify";
import { TestWitness } from "../witness/test-witness";
import { verifyTlogProof } from "@/lib/verify/tlog-proof";
import { cli } from "../cli";
import { seedConsumer } from "../accounts";
import { api, attest, baseUrls, dbKind, eventually, logInfo, mint, orgWithIssuer, proofBundle, randomContentHash } from "./helpers";
import { itWhere } from "./only-where";

const witnesses = JSON.parse(process.env.HALLMARK_TEST_WITNESSES ?? "[]") as { name: string; url: string; vkey: string }[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function control(i: number, path: string, body?: string) {
  const res = await fetch(`${witnesses[i]!.url}/_test/${path}`, body === undefined ? {} : { method: "POST", body });
  return (await res.json()) as {
    mode: string;
    submissions: { origin: string; old: number; size: number; status: number }[];
    /** The add-checkpoint requests the witness holds unanswered ("hold" mode) whose client is still waiting, by number. */
    held: number[];
  };
}

type WitnessView = { name: string; cosigned_tree_size: number | null; failures: number };
const witnessing = async (instance = 0) =>
  (await api("/v1/log", { instance })).body.witnessing as { quorum: string; published_tree_size: number; witnesses: WitnessView[] };

/** What the operator's command shows of the witnesses: the public view plus each one's last error. */
async function adminWitnesses() {
  const { stdout } = await promisify(execFile)(...cli("admin", "witnesses", "--json"), { encoding: "utf8" });
  return JSON.parse(stdout) as { witnesses: (WitnessView & { last_error: string | null })[] };
}

describe("a witnessed log", () => {
  let key: string;
  let issuerId: string;
  let policy: Policy;

  beforeAll(async () => {
    expect(witnesses.length).toBe(2);
    ({ key, issuerId } = await orgWithIssuer());
    const res = await api("/v1/log/policy");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    policy = parsePolicy(res.text);
  });

  afterAll(async () => {
    await control(1, "mode", "normal");
  });

  it("serves a policy to pin: the log's key and URL, the configured witnesses and quorum", async () => {
    const info = await logInfo();
    expect(policy.logs.map((l) => [l.vkey, l.url])).toEqual([
      [info.verifier_key, `${baseUrls[0]}/v1/log`],
      [info.ml_dsa_44_verifier_key, `${baseUrls[0]}/v1/log`],
    ]);
    expect(policy.witnesses.map((w) => [w.name, w.key.vkey, w.url])).toEqual(witnesses.map((w, i) => [`w${i + 1}`, w.vkey, w.url]));
    expect(policy.quorum).toBe("any-witness");
  });

  // How soon after an attestation its checkpoint is cosigned is the bench's to measure, not this.
  it("after an attestation, /v1/log/checkpoint is cosigned by both witnesses, and bundles carry it", async () => {
    const made = await attest(key, issuerId);
    const cp = await eventually(
      async () => verifyWitnessedCheckpoint((await api("/v1/log/checkpoint")).text, policy),
      (c: WitnessedCheckpoint) => c.treeSize > made.log_index && c.cosigners.length === 2,
    );
    expect(cp.quorum.met).toBe(true);
    expect(cp.cosigners.map((c) => c.witness).sort()).toEqual(["w1", "w2"]);
    for (const c of cp.cosigners) expect(Math.abs(c.timestamp * 1000 - Date.now())).toBeLessThan(60_000);
    const bundle = await proofBundle(key, made.id);
    const sth = verifyWitnessedCheckpoint(bundle.signed_tree_head.checkpoint, policy);
    expect(sth.quorum.met).toBe(true);
    expect(verifyProofBundle(bundle, { logPublicKey: parsePublicKeyPem((await logInfo()).public_key) }).ok).toBe(true);
    const state = await witnessing();
    expect(state.quorum).toBe("any of (w1, w2)");
    expect(state.published_tree_size).toBeGreaterThan(made.log_index);
    for (const w of state.witnesses) expect(w).toMatchObject({ failures: 0, cosigned_tree_size: expect.any(Number) });
  });

  it("a mint followed at once by its tlog-proof and certificate: both carry a checkpoint that meets the quorum", async () => {
    const { apiKey } = await seedConsumer({ plan: "creator" });
    for (let i = 0; i < 3; i++) {
      const made = await mint(apiKey, { content_hash: randomContentHash(), visibility: i === 1 ? "private" : "public" });
      expect(made.status, made.text).toBe(201);
      const id = made.body.protection_id as string;
      const proof = await api(`/v1/protections/${id}/tlog-proof`, { key: apiKey });
      expect(proof.status, proof.text).toBe(200);
      expect(proof.headers.get("hallmark-witnessed")).toBe("true");
      const v = verifyTlogProof(proof.text, { policy });
      expect(v.attestation.id).toBe(made.body.attestation_id);
      expect(v.cosigners.length).toBeGreaterThan(0);
      const bundle = await api(`/v1/consumer/protections/${id}/proof-bundle`, { key: apiKey });
      expect(bundle.headers.get("hallmark-witnessed")).toBe("true");
      expect(verifyWitnessedCheckpoint(bundle.body.signed_tree_head.checkpoint, policy).quorum.met).toBe(true);
    }
  });

  it("a witness that is down, then never answers, does not stop the log; it is retried and catches up", async () => {
    await control(1, "mode", "down");
    const before = await logInfo();
    for (let i = 0; i < 10; i++) {
      await attest(key, issuerId);
      await sleep(100);
    }
    const down = await eventually(witnessing, (s) => s.witnesses[1]!.failures > 0);
    expect(down.witnesses[0]).toMatchObject({ failures: 0 });
    // Why it fails is the operator's to read, never the public's: the answer names no error.
    for (const w of down.witnesses) expect(Object.keys(w)).not.toContain("last_error");
    const seenByOperator = await adminWitnesses();
    expect(seenByOperator.witnesses[1]!.last_error).toMatch(/unreachable/);
    expect(seenByOperator.witnesses[0]!.last_error).toBeNull();
    // w1 alone is a quorum: publication goes on.
    await eventually(witnessing, (s) => s.published_tree_size >= before.tree_size + 10);
    // w2 now holds every request unanswered. Five attestations are answered, and published with
    // w1's cosignature, while the first request the log sent w2 is still open: neither waited
    // for w2, not even until the log gave up on it (it would have hung up). That first request
    // comes when w2's backoff from being down ends: up to 16 s after a few failures.
    await control(1, "mode", "hold");
    const [first] = (
      await eventually(
        () => control(1, "submissions"),
        (s) => s.held.length > 0,
        40_000,
      )
    ).held;
    for (let i = 0; i < 5; i++) await attest(key, issuerId);
    const five = (await logInfo()).tree_size;
    await eventually(witnessing, (s) => s.published_tree_size >= five);
    expect((await control(1, "submissions")).held, "the log still waits on its first request to w2").toContain(first);
    await control(1, "mode", "normal");
    const newest = (await logInfo()).tree_size;
    // Backoff doubles from 1 s: after the held request's timeout, five or six failures in a row
    // put the next attempt up to 64 s away.
    await eventually(witnessing, (s) => (s.witnesses[1]!.cosigned_tree_size ?? 0) >= newest && s.witnesses[1]!.failures === 0, 75_000);
    const seen = await control(1, "submissions");
    // It caught up from the size it had cosigned, with a consistency proof.
    expect(seen.submissions.some((x) => x.status === 200 && x.old > 0 && x.size > x.old)).toBe(true);
  }, 150_000);

  itWhere(baseUrls.length > 1, "needs two app instances, which the PostgreSQL run has")(
    "several instances submit each checkpoint to a witness once",
    async () => {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          api("/v1/attestations", { key, instance: i % baseUrls.length, json: { issuer_id: issuerId, payload: { n: i } } }),
        ),
      );
      await sleep(3_000);
      for (const i of [0, 1]) {
        const cosigned = (await control(i, "submissions")).submissions.filter((x) => x.status === 200).map((x) => x.size);
        expect(new Set(cosigned).size, `${dbKind}: witness ${i + 1} cosigned sizes ${cosigned.join(",")}`).toBe(cosigned.length);
      }
    },
    30_000,
  );
});

describe("the witness protocol's answers (tlog-witness add-checkpoint), with the log's own checkpoints", () => {
  let w: TestWitness;
  let url: string;
  let origin: string;
  let vkey: string;

  beforeAll(async () => {
    w = new TestWitness({ name: "witness.test/protocol" });
    url = await w.listen(0);
    ({ origin, verifier_key: vkey } = await logInfo());
  });
  afterAll(() => w.close());

  const post = async (body: string) => {
    const res = await fetch(`${url}/add-checkpoint`, { method: "POST", body });
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };
  const consistency = async (first: number, second: number) => {
    const res = await api(`/v1/log/consistency?first=${first}&second=${second}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { first: { checkpoint: string }; second: { checkpoint: string; tree_size: number }; hashes: string[] };
  };
  const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");
  const body = (old: number, proof: string[], note: string) => `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join("")}\n${note}`;

  it("404 for an unknown origin, 403 without a trusted signature or with a bad one, 400 for nonsense", async () => {
    const { key: k, issuerId: i } = await orgWithIssuer();
    const a = await attest(k, i);
    // A size some checkpoint has (other tests' entries share batches, so not always index + 1).
    const size = (await proofBundle(k, a.id)).signed_tree_head.tree_size as number;
    const { second } = await consistency(size, size);
    expect((await post(body(0, [], second.checkpoint))).status).toBe(404);
    w.trust(vkey);
    const unsigned = second.checkpoint.replace(/\n\n[\s\S]*$/, "\n\n\u2014 someone.else AAAAAAAA\n");
    expect((await post(body(0, [], unsigned))).status).toBe(403);
    // One character inside the log's own signature (after its 4-byte key id), never a padding
    // bit of the last one (a change there decodes to the same bytes), nor a cosignature line.
    const ownLine = new RegExp(`(\n\u2014 ${origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} [A-Za-z0-9+/]{10})([A-Za-z0-9+/])`);
    const forged = second.checkpoint.replace(ownLine, (_, head: string, c: string) => head + (c === "A" ? "B" : "A"));
    expect(forged).not.toBe(second.checkpoint);
    expect((await post(body(0, [], forged))).status).toBe(403);
    expect((await post(`old 01\n\n${second.checkpoint}`)).status).toBe(400);
    expect((await post(body(second.tree_size + 1, [], second.checkpoint))).status).toBe(400);
  });

  it("cosigns from 0, answers 409 text/x.tlog.size to a wrong old size, 422 to a bad proof, and cosigns a consistent extension", async () => {
    const { key: k, issuerId: i } = await orgWithIssuer();
    const a = await attest(k, i);
    const m = (await proofBundle(k, a.id)).signed_tree_head.tree_size as number;
    const first = (await consistency(m, m)).second;
    expect((await post(body(0, ["00".repeat(32)], first.checkpoint))).status).toBe(422);
    const ok = await post(body(0, [], first.checkpoint));
    expect(ok.status, ok.text).toBe(200);
    const policy = parsePolicy(`log ${vkey}\nwitness W ${w.vkey}\nquorum W\n`);
    expect(verifyWitnessedCheckpoint(first.checkpoint + ok.text, policy).quorum.met).toBe(true);
    for (let j = 0; j < 3; j++) await attest(k, i);
    const b = await attest(k, i);
    const n = (await proofBundle(k, b.id)).signed_tree_head.tree_size as number;
    const proof = await consistency(m, n);
    const conflict = await post(body(0, [], proof.second.checkpoint));
    expect(conflict).toEqual({ status: 409, type: "text/x.tlog.size", text: `${m}\n` });
    const bad = [...proof.hashes];
    bad[0] = bad[0]!.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect((await post(body(m, bad, proof.second.checkpoint))).status).toBe(422);
    expect((await post(body(m, [], proof.second.checkpoint))).status).toBe(422);
    const next = await post(body(m, proof.hashes, proof.second.checkpoint));
    expect(next.status, next.text).toBe(200);
    expect(w.cosignedSize(origin)).toBe(n);
    // The same size again, with the same root: cosigned; the monitoring endpoint serves it.
    expect((await post(body(n, [], proof.second.checkpoint))).status).toBe(200);
    const hash = (await import("node:crypto")).createHash("sha256").update(origin).digest("hex");
    const served = await fetch(`${url}/${hash}/checkpoint`);
    expect(served.status).toBe(200);
    expect(verifyWitnessedCheckpoint(await served.text(), policy).treeSize).toBe(n);
    expect((await fetch(`${url}/${"0".repeat(64)}/checkpoint`)).status).toBe(404);
  });
});
