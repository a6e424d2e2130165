// @hallmark-test db=sqlite,postgres lane=side-own-logs witnessing
// Log key rotation as the witness network accepts it (one origin, one key): a new key is a new
// log, announced by a successor statement as the old log's last entry. On a log of its own (a
// rotation changes the key the rest of the suite pins), with a test witness (e2e/witness) that,
// like the network's, refuses a second key for an origin it knows. In the PostgreSQL half of
// the suite, on a PostgreSQL database of its own.
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePolicy, parseVerifierKey, verifyProofBundle } from "@/lib/verify";
import { verifySuccessorProof } from "@/lib/verify/successor";
import { verifyTlogProof } from "@/lib/verify/tlog-proof";
import { TestWitness } from "../witness/test-witness";
import pg from "pg";
import { postgresAdminUrl as pgAdmin } from "@/server/test-support/postgres-admin-url.mjs";
import { cli } from "../cli";
import { dbKind, eventually, type ShardView } from "./helpers";
import { assertDescribed } from "./openapi-conformance";
import { OwnServer, orgWithIssuerOn, ownSqliteEnv } from "./own-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-rotation-"));
const policyFile = path.join(dir, "policy.txt");
const env: NodeJS.ProcessEnv = { ...ownSqliteEnv(dir, "rotation"), HALLMARK_WITNESS_POLICY: policyFile };
const pgName = `hallmark_rotation_${process.pid}`;
const pgTemplate = process.env.HALLMARK_TEST_PG_TEMPLATE;
const witness = new TestWitness({ name: "witness.test/rotation", oneKeyPerOrigin: true });
let server: OwnServer;
let key: string;
let issuerId: string;
let consumerKey: string;

async function get(p: string, opts: { key?: string; status?: number } = {}) {
  const res = await fetch(`${server.url}${p}`, { headers: opts.key ? { "x-api-key": opts.key } : {} });
  const text = await res.text();
  expect(res.status, `${p}: ${text}`).toBe(opts.status ?? 200);
  await assertDescribed(server.url, "GET", p.split("?")[0]!, res.status, res.headers, text);
  return text;
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

const run = promisify(execFile);
const admin = async (...args: string[]) => (await run(...cli("admin", ...args), { encoding: "utf8", env })).stdout;
const tool = (name: string, ...args: string[]) => spawnSync(...cli(name, ...args), { encoding: "utf8", env });
const hashOf = (origin: string) => createHash("sha256").update(origin).digest("hex");
const file = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

beforeAll(async () => {
  const url = await witness.listen(0);
  fs.writeFileSync(policyFile, `witness w ${witness.vkey} ${url}\nquorum w\n`);
  if (dbKind === "postgres") {
    const client = new pg.Client({ connectionString: pgAdmin });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    // A copy of the run's migrated template where there is one (scripts/test.mjs), else migrated below.
    await client.query(`CREATE DATABASE ${pgName}${pgTemplate ? ` TEMPLATE ${pgTemplate}` : ""}`);
    await client.end();
    const db = new URL(pgAdmin);
    db.pathname = `/${pgName}`;
    env.DATABASE_URL = db.toString();
  }
  if (dbKind !== "postgres" || !pgTemplate) await run("node", ["scripts/prisma.mjs", "deploy"], { env });
  server = await OwnServer.start(env);
  await server.ready();
  witness.trust(JSON.parse(await get("/v1/log")).verifier_key);
  ({ key, issuerId } = await orgWithIssuerOn(server.url, env, "rotation"));
  const consumer = await admin(
    "create-consumer",
    "--email",
    `rotation-${process.pid}@example.org`,
    "--password",
    "rotation-password",
    "--plan",
    "creator",
    "--verified",
    "--json",
  );
  consumerKey = JSON.parse(consumer).api_key;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await witness.close();
  if (dbKind === "postgres") {
    const client = new pg.Client({ connectionString: pgAdmin });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await client.end();
  }
});

describe("log key rotation: a new key is a new log", () => {
  it("freezes the old log with a witnessed successor statement; proofs of both verify, and verify and monitor follow the chain", async () => {
    const first = JSON.parse(await get("/v1/log")) as { origin: string; verifier_key: string };
    file("first.vkey", first.verifier_key); // beside the proofs the test writes, for checking them by hand
    const before = await attest();
    const minted = await fetch(`${server.url}/v1/consumer/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": consumerKey },
      body: JSON.stringify({ content_hash: createHash("sha256").update(`rotation-${Date.now()}`).digest("hex"), visibility: "private" }),
    });
    expect(minted.status).toBe(201);
    const protectionId = ((await minted.json()) as { protection_id: string }).protection_id;
    const beforeProof = await get(`/v1/attestations/${before.id}/tlog-proof`, { key });
    const monitorState = path.join(dir, "monitor.json");
    const monitor = (...extra: string[]) => tool("monitor", server.url, "--vkey", first.verifier_key, "--state", monitorState, ...extra);
    const seen = monitor("--policy", policyFile);
    expect(seen.status, seen.stderr + seen.stdout).toBe(0);

    const rotated = JSON.parse(await admin("rotate-log-key", "--json")) as {
      previous: { origin: string; verifier_key: string; final_size: number; successor_index: number };
      current: { origin: string; verifier_key: string; ml_dsa_44_verifier_key: string };
    };
    expect(rotated.previous).toMatchObject({
      origin: first.origin,
      verifier_key: first.verifier_key,
      successor_index: before.log_index + 2,
    });
    expect(rotated.current.origin).toBe(`${first.origin}/1`);
    // The network's rule: the witness refuses another key for the origin it knows; the new log has a new origin.
    const newKey = parseVerifierKey(rotated.current.verifier_key).publicKey;
    const sameOriginNewKey = `${first.origin}+${createHash("sha256")
      .update(Buffer.concat([Buffer.from(first.origin), Buffer.from([0x0a, 0x01]), newKey]))
      .digest()
      .subarray(0, 4)
      .toString("hex")}+${Buffer.concat([Buffer.from([1]), newKey]).toString("base64")}`;
    expect(() => witness.trust(sameOriginNewKey)).toThrow(/new key must be a new log/);
    // /v1/log is the new log now: no checkpoint of it is cosigned yet (its witness does not know it).
    expect(JSON.parse(await get("/v1/log/checkpoint", { status: 503 })).code).toBe("not_yet_witnessed");
    witness.trust(rotated.current.verifier_key); // as the network adds the new log's entry

    // Appends go to the new log from its first entry, and its proofs meet the quorum.
    const after = await attest();
    expect(after.log_index).toBe(0);
    const policy = await get("/v1/log/policy");
    expect(policy).toContain(`log ${first.verifier_key} `);
    expect(policy).toContain(`log ${rotated.current.verifier_key} `);
    // Its first checkpoint is cosigned once the witness knows the new log (a round or two).
    const proofPath = `${server.url}/v1/attestations/${after.id}/tlog-proof`;
    const fetched = await eventually(
      async () => {
        const res = await fetch(proofPath, { headers: { "x-api-key": key } });
        return { status: res.status, text: await res.text() };
      },
      (r) => r.status === 200,
      20_000,
    );
    const afterProof = fetched.text;
    const v = verifyTlogProof(afterProof, { policy: parsePolicy(policy) });
    expect(v).toMatchObject({ origin: rotated.current.origin, index: 0, quorum: "w" });
    const bundle = JSON.parse(await get(`/v1/attestations/${after.id}/proof-bundle`, { key }));
    expect(verifyProofBundle(bundle, { logPublicKey: rotated.current.verifier_key }).ok).toBe(true);
    expect(bundle.signed_tree_head.origin).toBe(rotated.current.origin);

    // The old log's entries keep verifying with the old key, now under its final, witnessed checkpoint.
    const old = JSON.parse(await get(`/v1/attestations/${before.id}/proof-bundle`, { key }));
    expect(old.signed_tree_head).toMatchObject({ origin: first.origin, tree_size: rotated.previous.final_size });
    expect(verifyProofBundle(old, { logPublicKey: first.verifier_key }).ok).toBe(true);
    expect(verifyTlogProof(await get(`/v1/attestations/${before.id}/tlog-proof`, { key }), { policy: parsePolicy(policy) }).treeSize).toBe(
      rotated.previous.final_size,
    );
    expect(verifyTlogProof(beforeProof, { logPublicKey: parseVerifierKey(first.verifier_key).publicKey }).index).toBe(before.log_index);
    expect(witness.cosignedSize(first.origin)).toBe(rotated.previous.final_size);
    expect(witness.cosignedSize(rotated.current.origin)).toBeGreaterThanOrEqual(1);

    // /v1/log lists both logs; the frozen one's successor statement is a tlog-proof its key and witnesses verify.
    const shards = JSON.parse(await get("/v1/log")).shards as ShardView[];
    expect(shards.map((s) => [s.origin, s.state, s.verifier_key])).toEqual([
      [first.origin, "frozen", first.verifier_key],
      [rotated.current.origin, "current", rotated.current.verifier_key],
    ]);
    expect(shards[0]!.tree_size).toBe(rotated.previous.final_size);
    const oldPrefix = `/v1/log/shards/${hashOf(first.origin)}`;
    expect(shards[0]!.successor_url).toBe(`${server.url}${oldPrefix}/successor`);
    const successor = await get(`${oldPrefix}/successor`);
    const step = verifySuccessorProof(
      successor,
      { origin: first.origin, publicKey: parseVerifierKey(first.verifier_key).publicKey },
      parsePolicy(policy),
    );
    expect(step).toMatchObject({
      origin: rotated.current.origin,
      verifierKey: rotated.current.verifier_key,
      finalSize: rotated.previous.final_size,
    });
    await get(`/v1/log/shards/${hashOf(rotated.current.origin)}/successor`, { status: 404 });
    await get(`/v1/log/shards/${"0".repeat(64)}/checkpoint`, { status: 404 });
    const finalNote = await get(`${oldPrefix}/checkpoint`);
    expect(finalNote.split("\n").slice(0, 2)).toEqual([first.origin, String(rotated.previous.final_size)]);

    // npm run verify: the new log's proof, from the first key through the successor statement.
    const proofFile = file("after.tlog-proof", afterProof);
    const chained = tool("verify", proofFile, "--log-key", first.verifier_key, "--successor", file("successor.tlog-proof", successor));
    expect(chained.status, chained.stdout + chained.stderr).toBe(0);
    expect(chained.stdout).toContain(`pass chain: ${first.origin} ended at size ${rotated.previous.final_size}`);
    const unchained = tool("verify", proofFile, "--log-key", first.verifier_key);
    expect(unchained.status).toBe(1);
    const forged = tool("verify", proofFile, "--log-key", first.verifier_key, "--successor", file("forged.tlog-proof", beforeProof));
    expect(forged.status).toBe(1);
    expect(forged.stderr).toMatch(/successor_invalid|chain_invalid/);

    // npm run monitor: from its state in the old log, through the statement, to the new one.
    const followed = monitor("--policy", policyFile);
    expect(followed.status, followed.stderr + followed.stdout).toBe(0);
    expect(followed.stdout).toContain(`its successor statement names ${rotated.current.origin}: following it`);
    expect(JSON.parse(fs.readFileSync(monitorState, "utf8"))).toMatchObject({
      origin: rotated.current.origin,
      vkey: rotated.current.verifier_key,
    });
    const fresh = tool("monitor", server.url, "--vkey", first.verifier_key);
    expect(fresh.status, fresh.stderr + fresh.stdout).toBe(0);
    expect(fresh.stdout).toContain(`checkpoint ${rotated.current.origin} size`);

    // An export made after the rotation: the protection's proofs on the old log's key, the statement beside them.
    const res = await fetch(`${server.url}/v1/consumer/export`, { headers: { "x-api-key": consumerKey } });
    expect(res.status).toBe(200);
    const zip = file("export.zip", "");
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const out = path.join(dir, "export");
    expect(spawnSync("unzip", ["-q", zip, "-d", out]).status).toBe(0);
    expect(fs.readFileSync(path.join(out, "log/successor-0.tlog-proof"), "utf8")).toBe(successor);
    expect(fs.readFileSync(path.join(out, "README.txt"), "utf8")).toContain("The log's key has rotated");
    const exported = tool(
      "verify",
      path.join(out, `protections/${protectionId}/${protectionId}.tlog-proof`),
      "--policy",
      path.join(out, "log/policy.txt"),
    );
    expect(exported.status, exported.stdout + exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`tree head of ${first.origin} at size ${rotated.previous.final_size}`);

    // The audit checks each log under its own key, and the statement that joins them.
    const audit = tool("audit-log");
    expect(audit.status, audit.stderr).toBe(0);
  }, 120_000);

  it("rotates under load: every write answered 201 is in one of the logs, proven under that log's key", async () => {
    // Four writers keep writes in flight from before the rotation until after it.
    let rotating = true;
    const rotation = admin("rotate-log-key", "--json").finally(() => {
      rotating = false;
    });
    const done: { id: string; log_index: number }[] = [];
    const writer = async () => {
      while (rotating) done.push(await attest());
      for (let i = 0; i < 3; i++) done.push(await attest());
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    const rotated = JSON.parse(await rotation) as {
      previous: { origin: string; final_size: number };
      current: { origin: string; verifier_key: string };
    };
    witness.trust(rotated.current.verifier_key);
    const shards = JSON.parse(await get("/v1/log")).shards as ShardView[];
    expect(shards.at(-2)).toMatchObject({ origin: rotated.previous.origin, state: "frozen", tree_size: rotated.previous.final_size });
    const byOrigin = new Map<string, number[]>();
    for (const a of done) {
      const bundle = JSON.parse(await get(`/v1/attestations/${a.id}/proof-bundle?witnessed=optional`, { key }));
      const shard = shards.find((s) => s.origin === bundle.signed_tree_head.origin);
      expect(shard, bundle.signed_tree_head.origin).toBeDefined();
      expect(bundle.attestation.log_index).toBe(a.log_index);
      expect(verifyProofBundle(bundle, { logPublicKey: shard!.verifier_key }).ok).toBe(true);
      byOrigin.set(shard!.origin, [...(byOrigin.get(shard!.origin) ?? []), a.log_index]);
    }
    // Both logs took some of the writes, each with its own indexes, none twice.
    expect([...byOrigin.keys()].sort()).toEqual([rotated.current.origin, rotated.previous.origin].sort());
    for (const indexes of byOrigin.values()) expect(new Set(indexes).size).toBe(indexes.length);
    const audit = tool("audit-log");
    expect(audit.status, audit.stderr).toBe(0);
  }, 120_000);

  it("refuses an origin the chain already has, and changes nothing", async () => {
    const info = JSON.parse(await get("/v1/log"));
    await expect(admin("rotate-log-key", "--origin", info.shards[0].origin)).rejects.toThrow(/already names a log/);
    await expect(admin("rotate-log-key", "--origin", "has space")).rejects.toThrow(/not a valid origin/);
    expect(JSON.parse(await get("/v1/log")).shards).toEqual(info.shards);
  });
});
