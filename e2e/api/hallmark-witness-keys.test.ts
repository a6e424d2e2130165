// @hallmark-test db=sqlite,postgres lane=side-own-logs witnessing
// Hallmark's witness binds its state to keys: each record holds the log key it was made under and
// the witness keys that cosigned it; a list that changes a known origin's key is refused for it
// until an operator retires the origin; the witness keys are its own (a file in the data
// directory made on first start), an upgraded instance keeps the keys it had, and a copy of its
// database elsewhere is another witness, refused the records. On servers of its own, on the run's
// database, fed by logs made here.
import { execFile } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAdminUrl } from "@/server/test-support/postgres-admin-url.mjs";
import { cli } from "../cli";
import { fakeLog, leaves, request } from "./fake-log";
import { assertDescribed } from "./openapi-conformance";
import { OwnServer, ownDatabase, ownSqliteEnv } from "./own-server";

const onPostgres = (process.env.HALLMARK_TEST_DB ?? "sqlite") === "postgres";
const ORIGIN = `keys.example/log-${process.pid}`;
const first = fakeLog(ORIGIN);
const second = fakeLog(ORIGIN); // the same origin under a new key
const masterKey = randomBytes(32);
const dirs = [0, 1].map((i) => fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-witness-keys-${i}-`)));
const listFile = path.join(dirs[0]!, "logs.txt");
const METRICS_TOKEN = "witness-keys-metrics-token";
const envOf = (dir: string): NodeJS.ProcessEnv => ({
  ...ownSqliteEnv(dir, "witness-keys"),
  HALLMARK_MASTER_KEY: masterKey.toString("hex"),
  HALLMARK_WITNESS_LOGS: listFile,
  HALLMARK_WITNESS_LOGS_REFRESH: "1",
  HALLMARK_WITNESS_FAILURES: "100000",
  HALLMARK_METRICS_TOKEN: METRICS_TOKEN,
});
const env = envOf(dirs[0]!);
const copyEnv = envOf(dirs[1]!);
const dbName = `hallmark_witness_keys_${process.pid}`;
const drops: (() => Promise<void>)[] = [];
let server: OwnServer | undefined;
const t = leaves(6);

const list = (vkey: string) => fs.writeFileSync(listFile, `logs/v0\nvkey ${vkey}\nqpd 86400\ncontact test\n`);
async function boot(e: NodeJS.ProcessEnv) {
  await server?.stop();
  server = await OwnServer.start(e);
  await server.ready();
}
async function post(body: string) {
  const res = await fetch(`${server!.url}/v1/witness/add-checkpoint`, { method: "POST", body });
  const text = await res.text();
  await assertDescribed(server!.url, "POST", "/v1/witness/add-checkpoint", res.status, res.headers, text);
  return { status: res.status, text, code: res.status >= 400 && res.status !== 409 ? (JSON.parse(text) as { code: string }).code : null };
}
const vkeys = async () => ((await (await fetch(`${server!.url}/v1/witness`)).json()) as { vkeys: string[] }).vkeys;
const admin = async (e: NodeJS.ProcessEnv, ...args: string[]) =>
  promisify(execFile)(...cli("admin", ...args), { encoding: "utf8", env: e });
/** The derived Ed25519 seed of the master key, as witnesses had before they had a file of their own. */
const derivedSeed = () => Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), "hallmark/v1/witness/ed25519", 32));
const publicOf = (seed: Buffer) =>
  createPublicKey(
    createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" }),
  )
    .export({ format: "der", type: "spki" })
    .subarray(-32);
const fileSeed = (dir: string) =>
  Buffer.from(/^ed25519 (\S+)$/m.exec(fs.readFileSync(path.join(dir, "witness.key"), "utf8"))![1]!, "base64");
const edPublicOf = (vkey: string) => Buffer.from(vkey.split("+").slice(2).join("+"), "base64").subarray(1);

/** Runs `sql` on the first server's database (while no server uses it). */
async function sql(query: string) {
  if (!onPostgres) {
    const db = new Database(path.join(dirs[0]!, "hallmark.db"));
    db.exec(query);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  await client.query(query);
  await client.end();
}

/** Asks until `answer` says what `want` wants (the list is read again in the background). */
async function until<A extends { code: string | null; status: number }>(ask: () => Promise<A>, want: string | number): Promise<A> {
  for (let i = 0; i < 100; i++) {
    const a = await ask();
    if (a.code === want || a.status === want) return a;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never answered ${want}`);
}

beforeAll(async () => {
  list(first.vkey);
  drops.push(await ownDatabase(env, dbName));
  await boot(env);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  for (const drop of drops) await drop();
});

describe("the witness's state is bound to keys", () => {
  it("makes its own keys on first start, in an owner-only file, not derived from the master key", async () => {
    const file = path.join(dirs[0]!, "witness.key");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fileSeed(dirs[0]!).equals(derivedSeed())).toBe(false);
    expect(edPublicOf((await vkeys())[0]!).equals(publicOf(fileSeed(dirs[0]!)))).toBe(true);
    expect((await post(request(0, [], first.checkpoint(t, 3)))).status).toBe(200);
  });

  it("refuses an origin whose key the list changed (reported) until an operator retires it", async () => {
    list(second.vkey);
    const refused = await until(() => post(request(3, [], second.checkpoint(t, 3))), "log_refused");
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(first.vkey);
    // Nor does the old key move the record any more: the list no longer trusts it.
    expect((await post(request(3, [], first.checkpoint(t, 3)))).code).toBe("untrusted_checkpoint");
    await server!.line((l) => l.msg === "witness: log refused until retired" && l.origin === ORIGIN);
    const metrics = await (await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^hallmark_witness_refused_logs 1$/m);
    expect((await admin(env, "witnesses")).stdout).toContain(`REFUSED ${ORIGIN}: the log list names the key ${second.vkey}`);
    // Retired on purpose: the record is printed and forgotten; the new key starts from size 0.
    const retired = JSON.parse((await admin(env, "witness-retire", ORIGIN, "--json")).stdout);
    expect(retired).toMatchObject({ origin: ORIGIN, tree_size: 3, log_vkey: first.vkey });
    expect(retired.note).toContain(first.checkpoint(t, 3).split("\n\n")[0]);
    await expect(admin(env, "witness-retire", ORIGIN)).rejects.toMatchObject({ code: 2 });
    expect((await post(request(0, [], second.checkpoint(t, 5)))).status).toBe(200);
  });

  it("an upgrade writes the keys it had (derived from the master key) to its file and binds its records to them", async () => {
    await server!.stop();
    server = undefined;
    // As before this version: no key file, records bound to no key.
    fs.rmSync(path.join(dirs[0]!, "witness.key"));
    await sql("UPDATE witnessed_logs SET log_vkey = NULL, witness_vkeys = NULL");
    await boot(env);
    expect(fileSeed(dirs[0]!).equals(derivedSeed())).toBe(true);
    expect(edPublicOf((await vkeys())[0]!).equals(publicOf(derivedSeed()))).toBe(true);
    expect((await post(request(5, [], second.checkpoint(t, 5)))).status).toBe(200);
  });

  it("a copy of its database elsewhere, with the same master key, is another witness: refused the records", async () => {
    const ours = await vkeys();
    await server!.stop();
    server = undefined;
    if (onPostgres) {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${dbName}_copy WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${dbName}_copy TEMPLATE ${dbName}`);
      await client.end();
      const url = new URL(postgresAdminUrl);
      url.pathname = `/${dbName}_copy`;
      copyEnv.DATABASE_URL = url.toString();
      drops.push(async () => {
        const c = new pg.Client({ connectionString: postgresAdminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName}_copy WITH (FORCE)`);
        await c.end();
      });
    } else {
      const db = new Database(path.join(dirs[0]!, "hallmark.db"));
      await db.backup(path.join(dirs[1]!, "hallmark.db"));
      db.close();
    }
    await boot(copyEnv);
    expect(await vkeys()).not.toEqual(ours);
    const refused = await post(request(5, [], second.checkpoint(t, 5)));
    expect(refused).toMatchObject({ status: 403, code: "log_refused" });
    expect(refused.text).toMatch(/other witness keys/);
    expect(
      createHash("sha256")
        .update(fs.readFileSync(path.join(dirs[1]!, "witness.key")))
        .digest("hex"),
    ).not.toBe(
      createHash("sha256")
        .update(fs.readFileSync(path.join(dirs[0]!, "witness.key")))
        .digest("hex"),
    );
  });
});
