// @hallmark-test db=sqlite,postgres lane=side-own-logs witnessing
// Hallmark as a C2SP tlog-witness ({base_url}/v1/witness), on two servers of their own (X and Y,
// each its own database on the run's database, and its own master key) that witness each other's
// logs, and a log made here (e2e/api/fake-log.ts: its own Ed25519 key, its tree and proofs
// computed from RFC 6962) that drives every answer of add-checkpoint, as a client that is not
// Hallmark's own. The witness's record is a compare-and-set on the database: it runs on both.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePolicy, verifyWitnessedCheckpoint } from "@/lib/verify";
import { verifyTlogProof } from "@/lib/verify/tlog-proof";
import { TestWitness } from "../witness/test-witness";
import { fakeLog, leaves, mth, request, sha, subproof } from "./fake-log";
import { assertDescribed } from "./openapi-conformance";
import { freePort, OwnServer, orgWithIssuerOn, ownDatabase, ownSqliteEnv, sleep } from "./own-server";

const ORIGIN = `fake.example/log-${process.pid}`;
const log = fakeLog(ORIGIN);
const LOG_VKEY = log.vkey;
const checkpoint = (hashes: Buffer[], size = hashes.length) => log.checkpoint(hashes, size);

// ---- the two Hallmark servers ----
interface Node {
  dir: string;
  port: number;
  env: NodeJS.ProcessEnv;
  server?: OwnServer;
  logVkey?: string;
  witness?: { name: string; vkeys: string[] };
}
const nodes: Record<"x" | "y", Node> = { x: {} as Node, y: {} as Node };
const drops: (() => Promise<void>)[] = [];
const url = (n: Node) => `http://127.0.0.1:${n.port}`;

async function boot(n: Node) {
  n.server = await OwnServer.start(n.env, { port: n.port });
  await n.server.ready();
}

async function post(n: Node, body: string) {
  const res = await fetch(`${url(n)}/v1/witness/add-checkpoint`, { method: "POST", body });
  const text = await res.text();
  await assertDescribed(url(n), "POST", "/v1/witness/add-checkpoint", res.status, res.headers, text);
  return { status: res.status, type: res.headers.get("content-type"), text };
}

beforeAll(async () => {
  for (const [label, n] of Object.entries(nodes)) {
    n.dir = fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-witness-${label}-`));
    n.port = await freePort();
    n.env = { ...ownSqliteEnv(n.dir, `witness-${label}`), HALLMARK_MASTER_KEY: randomBytes(32).toString("hex") };
    drops.push(await ownDatabase(n.env, `hallmark_witness_${label}_${process.pid}`));
    await boot(n);
    n.logVkey = (await (await fetch(`${url(n)}/v1/log`)).json()).verifier_key;
    n.witness = await (await fetch(`${url(n)}/v1/witness`)).json();
  }
  // Each witnesses the other's log; X also follows the log made here. Then both start again with it.
  const { x, y } = nodes;
  const item = (vkey: string) => `vkey ${vkey}\nqpd 86400\ncontact test\n`;
  fs.writeFileSync(path.join(x.dir, "logs.txt"), `logs/v0\n${item(y.logVkey!)}\n${item(LOG_VKEY)}`);
  fs.writeFileSync(path.join(y.dir, "logs.txt"), `logs/v0\n${item(x.logVkey!)}`);
  const policy = (other: Node) =>
    `witness ${other.witness!.name} ${other.witness!.vkeys[0]} ${url(other)}/v1/witness\nquorum ${other.witness!.name}\n`;
  fs.writeFileSync(path.join(x.dir, "policy.txt"), policy(y));
  fs.writeFileSync(path.join(y.dir, "policy.txt"), policy(x));
  for (const n of [x, y]) {
    await n.server!.stop();
    n.env = { ...n.env, HALLMARK_WITNESS_LOGS: path.join(n.dir, "logs.txt"), HALLMARK_WITNESS_POLICY: path.join(n.dir, "policy.txt") };
    await boot(n);
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(nodes).map((n) => n.server?.stop()));
  for (const drop of drops) await drop();
});

describe("Hallmark as a witness (C2SP tlog-witness)", () => {
  it("GET /v1/witness names the witness, its Ed25519 and ML-DSA-44 keys and the logs it follows", async () => {
    const res = await fetch(`${url(nodes.x)}/v1/witness`);
    const text = await res.text();
    await assertDescribed(url(nodes.x), "GET", "/v1/witness", res.status, res.headers, text);
    const info = JSON.parse(text);
    expect(info.name).toBe(`127.0.0.1:${nodes.x.port}/witness`);
    expect(info.vkeys.map((v: string) => Buffer.from(v.split("+").slice(2).join("+"), "base64")[0])).toEqual([0x04, 0x06]);
    expect(info.logs.map((l: { origin: string }) => l.origin).sort()).toEqual([ORIGIN, nodes.y.logVkey!.split("+")[0]].sort());
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers every case of add-checkpoint, and never cosigns two trees of one size", async () => {
    const x = nodes.x;
    const policy = parsePolicy(
      `log ${LOG_VKEY}\n${x.witness!.vkeys.map((v, i) => `witness k${i} ${v}`).join("\n")}\ngroup both all k0 k1\nquorum both\n`,
    );
    // The test witness (e2e/witness, written apart from Hallmark's code) is sent the same requests:
    // the two must give the same answers.
    const reference = new TestWitness({ name: "witness.test/reference", logKeys: [LOG_VKEY] });
    const referenceUrl = await reference.listen(0);
    const both = async (body: string) => {
      const ours = await post(x, body);
      const theirs = await fetch(`${referenceUrl}/add-checkpoint`, { method: "POST", body });
      const theirText = await theirs.text();
      expect(ours.status, `Hallmark ${ours.text} / test witness ${theirText}`).toBe(theirs.status);
      if (ours.status === 409) expect(ours.text).toBe(theirText);
      return ours;
    };
    const t = leaves(12);
    // 404: an origin it does not follow; 403: no signature by the log's key, or one that fails.
    const stranger = checkpoint(t, 5).replaceAll(ORIGIN, "stranger.example/log");
    expect((await both(request(0, [], stranger))).status).toBe(404);
    expect((await both(request(0, [], checkpoint(t, 5).replace(/\n\n[\s\S]*$/, "\n\n\u2014 someone.else AAAAAAAA\n")))).status).toBe(403);
    const forged = checkpoint(t, 5).replace(
      /(\u2014 \S+ [A-Za-z0-9+/]{12})([A-Za-z0-9+/])/,
      (_, a: string, c: string) => a + (c === "A" ? "B" : "A"),
    );
    expect((await both(request(0, [], forged))).status).toBe(403);
    // 400: not the protocol's body; old larger than the size.
    expect((await both(`old 01\n\n${checkpoint(t, 5)}`)).status).toBe(400);
    expect((await both("nonsense")).status).toBe(400);
    expect((await both(request(6, [], checkpoint(t, 5)))).status).toBe(400);
    // 422: a proof from old size 0.
    expect((await both(request(0, [t[0]!], checkpoint(t, 5)))).status).toBe(422);
    // 200 from 0: an Ed25519 and an ML-DSA-44 cosignature, both by the keys /v1/witness names.
    const first = await both(request(0, [], checkpoint(t, 5)));
    expect(first.status, first.text).toBe(200);
    expect(first.text.split("\n").filter(Boolean)).toHaveLength(2);
    const w = verifyWitnessedCheckpoint(checkpoint(t, 5) + first.text, policy);
    expect(w.quorum.met).toBe(true);
    for (const c of w.cosigners) expect(Math.abs(c.timestamp * 1000 - Date.now())).toBeLessThan(60_000);
    // 409 text/x.tlog.size to a wrong old size.
    expect(await both(request(0, [], checkpoint(t, 8)))).toEqual({ status: 409, type: "text/x.tlog.size", text: "5\n" });
    // 422: a proof that does not verify; the same size with another root.
    const proof = subproof(5, t.slice(0, 8), true);
    const broken = proof.map((h, i) => (i === 0 ? sha(h) : h));
    expect((await both(request(5, broken, checkpoint(t, 8)))).status).toBe(422);
    expect(
      (
        await both(
          request(
            5,
            [],
            checkpoint(
              leaves(5).map((h) => sha(h)),
              5,
            ),
          ),
        )
      ).status,
    ).toBe(422);
    // 200: a consistent extension; the same checkpoint again is cosigned again (with the time of now).
    const next = await both(request(5, proof, checkpoint(t, 8)));
    expect(next.status, next.text).toBe(200);
    const again = await both(request(8, [], checkpoint(t, 8)));
    expect(again.status, again.text).toBe(200);
    expect(verifyWitnessedCheckpoint(checkpoint(t, 8) + again.text, policy).quorum.met).toBe(true);
    // A fork: two trees of size 12 that both extend the size-8 one, sent at once, ten times each.
    const forkA = leaves(12, "-a");
    const forkB = leaves(12, "-b");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const f = i % 2 ? forkA : forkB;
        return post(x, request(8, subproof(8, f, true), checkpoint(f, 12))).then((a) => ({ ...a, fork: i % 2 ? "a" : "b" }));
      }),
    );
    const cosigned = new Set(answers.filter((a) => a.status === 200).map((a) => a.fork));
    expect(cosigned.size, JSON.stringify(answers.map((a) => [a.fork, a.status]))).toBe(1);
    for (const a of answers.filter((a) => a.status !== 200)) expect([409, 422]).toContain(a.status);
    // The monitoring endpoint serves the latest cosigned checkpoint, with the log's signature and both cosignatures.
    const hash = createHash("sha256").update(ORIGIN).digest("hex");
    const served = await fetch(`${url(x)}/v1/witness/${hash}/checkpoint`);
    expect(served.status).toBe(200);
    const held = verifyWitnessedCheckpoint(await served.text(), policy);
    expect(held.treeSize).toBe(12);
    expect(Buffer.from(held.rootHash).equals(mth(cosigned.has("a") ? forkA : forkB))).toBe(true);
    expect((await fetch(`${url(x)}/v1/witness/${"0".repeat(64)}/checkpoint`)).status).toBe(404);
    await reference.close();
  });

  it("two instances witness each other: each one's proofs verify under its policy naming the other", async () => {
    for (const n of [nodes.x, nodes.y]) {
      const { key: apiKey, issuerId } = await orgWithIssuerOn(url(n), n.env, "mutual");
      const made = await fetch(`${url(n)}/v1/attestations`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({ issuer_id: issuerId, payload: { n: "mutual" } }),
      });
      const { id } = (await made.json()) as { id: string };
      const proof = await fetch(`${url(n)}/v1/attestations/${id}/tlog-proof`, { headers: { "x-api-key": apiKey } });
      expect(proof.status).toBe(200);
      const policy = parsePolicy(await (await fetch(`${url(n)}/v1/log/policy`)).text());
      const other = n === nodes.x ? nodes.y : nodes.x;
      expect(verifyTlogProof(await proof.text(), { policy }).cosigners.map((c) => c.witness)).toEqual([other.witness!.name]);
    }
  }, 60_000);

  it("a witness killed -9 mid-witnessing keeps its record: back up, it never goes back and the log catches up", async () => {
    const { x, y } = nodes;
    const { key: apiKey, issuerId } = await orgWithIssuerOn(url(x), x.env, "crash");
    const attest = () =>
      fetch(`${url(x)}/v1/attestations`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({ issuer_id: issuerId, payload: { t: randomBytes(8).toString("hex") } }),
      });
    const xOrigin = x.logVkey!.split("+")[0]!;
    const heldByY = async () =>
      ((await (await fetch(`${url(y)}/v1/witness`)).json()) as { logs: { origin: string; cosigned_tree_size: number | null }[] }).logs.find(
        (l) => l.origin === xOrigin,
      )!.cosigned_tree_size ?? 0;
    let writing = true;
    const load = (async () => {
      while (writing) {
        await attest();
        await sleep(20);
      }
    })();
    await sleep(2_500);
    await y.server!.stop("SIGKILL");
    await sleep(1_000);
    await boot(y);
    const afterCrash = await heldByY();
    await sleep(2_000);
    writing = false;
    await load;
    const newest = ((await (await fetch(`${url(x)}/v1/log`)).json()) as { tree_size: number }).tree_size;
    // Y's record survived the kill (what it answered 200 for was committed first) and moves only forward.
    expect(afterCrash).toBeGreaterThan(0);
    for (let i = 0; i < 200 && (await heldByY()) < newest; i++) await sleep(100);
    expect(await heldByY()).toBe(newest);
    // What Y holds is X's own tree of that size.
    const hash = createHash("sha256").update(xOrigin).digest("hex");
    const held = await (await fetch(`${url(y)}/v1/witness/${hash}/checkpoint`)).text();
    const xs = (await (await fetch(`${url(x)}/v1/log/consistency?first=${newest}&second=${newest}`)).json()) as {
      second: { root_hash: string };
    };
    expect(Buffer.from(held.split("\n")[2]!, "base64").toString("hex")).toBe(xs.second.root_hash);
  }, 90_000);
});
