// @hallmark-test db=sqlite,postgres lane=side-own-logs
// Backup and restore (`npm run admin -- backup | restore`). On SQLite: a backup taken while a
// server of its own is under attestation load, restored into an empty data directory and
// started there, holds every attestation acknowledged before the backup began, each readable
// with a verifying proof bundle, and nothing past one log prefix; the restored log is the
// original's at that size, takes new attestations with the same keys, and passes the log audit.
// Restore refuses a non-empty directory, a file that is not Hallmark's database and a master
// key that does not fit, changing nothing. On PostgreSQL both commands refuse, naming pg_dump.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { cli } from "../cli";
import { baseUrls, dbKind, randomContentHash } from "./helpers";
import { forEachConcurrently } from "./concurrently";
import { itWhere } from "./only-where";
import { OwnServer, sleep } from "./own-server";
import { assertDescribed } from "./openapi-conformance";
import { seedOrg } from "../accounts";

const CLIENTS = 8;
const onSqlite = itWhere(dbKind === "sqlite", "backup and restore are SQLite's; PostgreSQL's refusal is this file's last test");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-backup-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- <args>`, without blocking this process (the load goes on meanwhile). */
function admin(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(...cli("admin", ...args), { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A SQLite configuration of its own: no witnesses or TSA (they know the suite's log), the master key in the data directory. */
function ownEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `file:${path.join(dataDir, "hallmark.db")}`,
    HALLMARK_DATA_DIR: dataDir,
    HALLMARK_LOG_ORIGIN: `hallmark-test/backup-${process.pid}`,
  };
  for (const name of ["HALLMARK_MASTER_KEY", "HALLMARK_WITNESS_POLICY", "HALLMARK_TSA_URL", "HALLMARK_TSA_CERT", "HALLMARK_TSA_INTERVAL"])
    delete env[name];
  return env;
}

/** Started as `npm start` does: pending migrations applied, then scripts/serve.mjs. */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const deploy = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, ["scripts/prisma.mjs", "deploy"], { env, stdio: "ignore" }).on("exit", resolve),
  );
  expect(deploy, "prisma deploy").toBe(0);
  const server = await OwnServer.start(env);
  try {
    await server.ready(30_000);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url: server.url, stop: () => server.stop() };
}

/** One request to a server of ours; the answer must be one the OpenAPI document describes. */
async function call(url: string, method: string, p: string, key?: string, json?: unknown) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { ...(key ? { "x-api-key": key } : {}), ...(json !== undefined ? { "content-type": "application/json" } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  await assertDescribed(baseUrls[0]!, method, p, res.status, res.headers, text);
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

/** Every file under `dir` with its bytes, to show that a refused command changed nothing. */
function snapshot(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).map((n) => [n, fs.readFileSync(path.join(dir, n)).toString("base64")]));
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe(`backup and restore (${dbKind})`, () => {
  onSqlite(
    "a backup taken under write load restores every attestation acknowledged before it, and the restored log serves and audits",
    async () => {
      const dirA = path.join(work, "a");
      const envA = ownEnv(dirA);
      const a = await startServer(envA);
      let b: Awaited<ReturnType<typeof startServer>> | undefined;
      try {
        const key = (await seedOrg({ env: envA })).apiKey;
        const issuer = await call(a.url, "POST", "/v1/issuers", key, { name: "Backup Issuer", domain: "backup.example.org" });
        expect(issuer.status, issuer.text).toBe(201);

        // Load: attestations from CLIENTS concurrent clients, each 201 recorded when it arrives.
        const acked: { id: string; logIndex: number }[] = [];
        const problems: string[] = [];
        let live = true;
        const load = Array.from({ length: CLIENTS }, async () => {
          while (live) {
            const r = await call(a.url, "POST", "/v1/attestations", key, {
              issuer_id: issuer.body.id,
              payload: { content_hash: randomContentHash() },
            });
            if (r.status === 201) acked.push({ id: r.body.id, logIndex: r.body.log_index });
            else if (r.status !== 503) problems.push(`${r.status} ${r.text}`);
          }
        });
        while (acked.length < 150) await sleep(20);

        const before = acked.slice();
        const backupFile = path.join(work, "backup.db");
        const run = await admin(["backup", backupFile, "--include-master-key", "--json"], envA);
        const duringBackup = acked.length - before.length;
        await sleep(300);
        live = false;
        await Promise.all(load);
        expect(problems.slice(0, 5)).toEqual([]);
        expect(run.code, run.stderr).toBe(0);
        // The load went on while the command ran: the server was serving and writing.
        expect(duringBackup).toBeGreaterThan(0);

        const out = JSON.parse(run.stdout);
        const masterKeyFile = path.join(dirA, "master.key");
        const masterKeyText = fs.readFileSync(masterKeyFile, "utf8");
        expect(out).toMatchObject({
          backup: backupFile,
          master_key: { source: "file", name: masterKeyFile, copy: `${backupFile}.master-key` },
        });
        // The key is named and copied to its own file, never printed.
        expect(run.stdout + run.stderr).not.toContain(masterKeyText.trim());
        expect(fs.readFileSync(`${backupFile}.master-key`, "utf8")).toBe(masterKeyText);
        expect(mode(backupFile)).toBe(0o600);
        expect(mode(`${backupFile}.master-key`)).toBe(0o600);
        // Nothing half-written is left beside it, and it is one file (no -wal).
        expect(fs.readdirSync(work).sort()).toEqual(["a", "backup.db", "backup.db.master-key"]);
        const size: number = out.tree_size;
        expect(size, "the backup's tree size").toBeTypeOf("number");
        expect(size).toBeGreaterThan(Math.max(...before.map((x) => x.logIndex)));

        // Without --include-master-key: the key is named, not copied.
        const plain = await admin(["backup", path.join(work, "plain.db"), "--json"], envA);
        expect(plain.code, plain.stderr).toBe(0);
        expect(JSON.parse(plain.stdout).master_key).toEqual({ source: "file", name: masterKeyFile, copy: null });
        expect(fs.existsSync(path.join(work, "plain.db.master-key"))).toBe(false);
        expect(plain.stdout).not.toContain(masterKeyText.trim());

        // Restore into a new, empty data directory, then start there.
        const dirB = path.join(work, "b");
        const envB = ownEnv(dirB);
        const restored = await admin(["restore", backupFile, "--data-dir", dirB, "--json"], envB);
        expect(restored.code, restored.stderr).toBe(0);
        expect(JSON.parse(restored.stdout)).toMatchObject({
          database: path.join(dirB, "hallmark.db"),
          tree_size: size,
          master_key: { source: "file", name: path.join(dirB, "master.key"), installed_from: `${backupFile}.master-key` },
        });
        expect(fs.readFileSync(path.join(dirB, "master.key"), "utf8")).toBe(masterKeyText);
        expect(mode(path.join(dirB, "master.key"))).toBe(0o600);
        b = await startServer(envB);

        // The restored log is the original's at the backup's size: same key, same root.
        const logA = (await call(a.url, "GET", "/v1/log")).body;
        const logB = (await call(b.url, "GET", "/v1/log")).body;
        expect(logB.public_key).toBe(logA.public_key);
        expect(logB.tree_size).toBe(size);
        const proof = await call(a.url, "GET", `/v1/log/consistency?first=${size}&second=${logA.tree_size}`);
        expect(proof.status, proof.text).toBe(200);
        expect(logB.root_hash).toBe(proof.body.first.root_hash);

        // Every attestation acknowledged before the backup is there, with a verifying bundle;
        // each acknowledged one is there exactly when its index is inside the backup's tree.
        const failed: string[] = [];
        await forEachConcurrently(acked, 8, async (x) => {
          const got = await call(b!.url, "GET", `/v1/attestations/${x.id}`, key);
          if (x.logIndex >= size) {
            if (got.status !== 404) failed.push(`${x.id} (index ${x.logIndex}, past the backup): ${got.status}`);
            return;
          }
          if (got.status !== 200 || got.body.log_index !== x.logIndex) {
            failed.push(`${x.id}: ${got.status} ${got.text.slice(0, 200)}`);
            return;
          }
          const bundle = await call(b!.url, "GET", `/v1/attestations/${x.id}/proof-bundle`, key);
          const v = bundle.status === 200 ? verifyProofBundle(bundle.body, { logPublicKey: logB.public_key }) : null;
          if (!v?.ok) failed.push(`${x.id}: bundle ${bundle.status} ${JSON.stringify(v ?? bundle.body).slice(0, 300)}`);
        });
        expect(failed.slice(0, 10), `${failed.length} of ${acked.length}`).toEqual([]);
        expect(before.every((x) => x.logIndex < size)).toBe(true);

        // The same API key and issuer key work there (the master key came along): the log grows on.
        const more = await call(b.url, "POST", "/v1/attestations", key, { issuer_id: issuer.body.id, payload: { after: "restore" } });
        expect(more.status, more.text).toBe(201);
        expect(more.body.log_index).toBe(size);
        const bundle = await call(b.url, "GET", `/v1/attestations/${more.body.id}/proof-bundle`, key);
        expect(verifyProofBundle(bundle.body, { logPublicKey: logB.public_key }).ok).toBe(true);

        const audit = await new Promise<Run>((resolve) => {
          const child = spawn(...cli("audit-log"), { env: envB, stdio: ["ignore", "pipe", "pipe"] });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (d) => (stdout += d));
          child.stderr.on("data", (d) => (stderr += d));
          child.on("exit", (code) => resolve({ code, stdout, stderr }));
        });
        expect(audit.code, audit.stdout + audit.stderr).toBe(0);
        expect(audit.stdout).toContain(`audited ${size + 1} leaves`);
        console.log(
          `[backup] ${before.length} acknowledged before the backup, ${duringBackup} while it ran; backup at size ${size} of ${logA.tree_size}; all restored and verified`,
        );
      } finally {
        await b?.stop();
        await a.stop();
      }
    },
    240_000,
  );

  onSqlite(
    "restore refuses a non-empty data directory, a file that is not Hallmark's database and a master key that does not fit",
    async () => {
      // A backup of the suite's own database, whose master key comes from HALLMARK_MASTER_KEY.
      const dir = path.join(work, "refusals");
      fs.mkdirSync(dir);
      const file = path.join(dir, "suite.db");
      const made = await admin(["backup", file, "--json"], process.env);
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout).master_key).toEqual({ source: "env", name: "HALLMARK_MASTER_KEY", copy: null });
      const envFor = (target: string, masterKey = process.env.HALLMARK_MASTER_KEY) => ({
        ...ownEnv(target),
        HALLMARK_MASTER_KEY: masterKey,
        HALLMARK_LOG_ORIGIN: process.env.HALLMARK_LOG_ORIGIN,
      });
      const restoreInto = (target: string, from = file, masterKey?: string) =>
        admin(["restore", from, "--data-dir", target], envFor(target, masterKey));

      // A directory holding anything (other than a master.key) is not empty.
      const busy = path.join(dir, "busy");
      fs.mkdirSync(busy);
      fs.writeFileSync(path.join(busy, "notes.txt"), "keep me");
      let r = await restoreInto(busy);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/not empty/);
      expect(snapshot(busy)).toEqual({ "notes.txt": Buffer.from("keep me").toString("base64") });

      // Nor is one that already has a database: it is left exactly as it was.
      const used = path.join(dir, "used");
      r = await restoreInto(used);
      expect(r.code, r.stderr).toBe(0);
      // The key comes from HALLMARK_MASTER_KEY: no key file is made.
      expect(fs.readdirSync(used)).toEqual(["hallmark.db"]);
      const beforeRefusal = snapshot(used);
      r = await restoreInto(used);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/already exists/);
      expect(snapshot(used)).toEqual(beforeRefusal);

      // A master key that does not open the backup's log key.
      const wrongKey = path.join(dir, "wrong-key");
      r = await restoreInto(wrongKey, file, randomUUID().replace(/-/g, "").repeat(2));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/master key/);
      expect(fs.existsSync(wrongKey)).toBe(false);

      // A file that is not a SQLite database, and a SQLite database that is not Hallmark's.
      const text = path.join(dir, "notes.db");
      fs.writeFileSync(text, "not a database\n".repeat(100));
      const other = path.join(dir, "other.db");
      const db = new Database(other);
      db.exec("CREATE TABLE things (id INTEGER PRIMARY KEY)");
      db.close();
      for (const [from, why] of [
        [text, /not a SQLite database/],
        [other, /not Hallmark's/],
      ] as const) {
        const target = path.join(dir, `from-${path.basename(from)}`);
        r = await restoreInto(target, from);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(why);
        expect(fs.existsSync(target), target).toBe(false);
      }
    },
  );

  it("on PostgreSQL, backup and restore refuse and point to pg_dump and pg_restore", async () => {
    const dir = path.join(work, "pg");
    fs.mkdirSync(dir);
    const env = { ...process.env, DATABASE_URL: "postgresql://hallmark@127.0.0.1:1/hallmark" };
    const backup = await admin(["backup", path.join(dir, "x.db")], env);
    expect(backup.code, backup.stderr).toBe(2);
    expect(backup.stderr).toContain("pg_dump");
    const restore = await admin(["restore", path.join(dir, "x.db")], env);
    expect(restore.code, restore.stderr).toBe(2);
    expect(restore.stderr).toContain("pg_restore");
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
