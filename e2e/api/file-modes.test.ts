// @hallmark-test db=sqlite lane=main
// What Hallmark writes to disk is its owner's alone from the moment it exists: the SQLite
// database with its -wal and -shm, the master key, the outbox's mail (each holds a link that
// signs in), backups, restored databases, and the temporary files on the way to them. Checked
// under the common umask 022, with which a file made without a mode is readable by everyone.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect } from "vitest";
import { cli } from "../cli";
import { dbKind } from "./helpers";
import { itWhere } from "./only-where";
import { OwnServer, sleep } from "./own-server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-file-modes-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** A SQLite data directory of its own, its master key made there, mail to its outbox. */
function ownEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `file:${path.join(dataDir, "hallmark.db")}`,
    HALLMARK_DATA_DIR: dataDir,
    HALLMARK_LOG_ORIGIN: `hallmark-test/file-modes-${process.pid}`,
  };
  for (const name of [
    "HALLMARK_MASTER_KEY",
    "HALLMARK_SMTP_URL",
    "HALLMARK_WITNESS_POLICY",
    "HALLMARK_TSA_URL",
    "HALLMARK_TSA_CERT",
    "HALLMARK_TSA_INTERVAL",
  ])
    delete env[name];
  return env;
}

function admin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(...cli("admin", ...args), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Every file that appears in `dir` while `run` runs, with its mode when first seen. */
async function watchModes<T>(dir: string, run: () => Promise<T>): Promise<{ result: T; seen: Map<string, number> }> {
  const seen = new Map<string, number>();
  const watcher = fs.watch(dir, (_event, name) => {
    if (!name || seen.has(name)) return;
    try {
      seen.set(name, mode(path.join(dir, name)));
    } catch {
      // gone already (a temporary file renamed or removed)
    }
  });
  try {
    return { result: await run(), seen };
  } finally {
    watcher.close();
  }
}

describe("files on disk", () => {
  itWhere(dbKind === "sqlite", "the files are SQLite's: a PostgreSQL deployment writes no database file")(
    "are created owner-only: database, -wal, -shm, master key, outbox, backup and restore with their temporary files",
    async () => {
      const umask = process.umask(0o022);
      try {
        const dataDir = path.join(work, "data");
        const env = ownEnv(dataDir);
        // Started as `npm start` does: the migrations create the database, then the server opens it.
        const server = await OwnServer.start(env, { script: "start" });
        try {
          await server.ready(150_000);
          const email = `modes-${randomUUID().slice(0, 8)}@example.org`;
          const signup = await fetch(`${server.url}/v1/consumer/signup`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password: "correct horse battery staple", name: "Modes" }),
          });
          expect(signup.status, await signup.text()).toBe(202);
          const outbox = path.join(dataDir, "outbox");
          for (let i = 0; i < 100 && !(fs.existsSync(outbox) && fs.readdirSync(outbox).length >= 2); i++) await sleep(100);
          const mails = fs.readdirSync(outbox);
          expect(mails.length).toBeGreaterThanOrEqual(2);

          const db = path.join(dataDir, "hallmark.db");
          const modes = Object.fromEntries(
            [
              dataDir,
              db,
              `${db}-wal`,
              `${db}-shm`,
              path.join(dataDir, "master.key"),
              outbox,
              ...mails.map((m) => path.join(outbox, m)),
            ].map((f) => [path.relative(work, f), mode(f)]),
          );
          const expected = Object.fromEntries(Object.keys(modes).map((f) => [f, f === "data" || f === "data/outbox" ? 0o700 : 0o600]));
          expect(modes).toEqual(expected);

          // A backup beside the running server: the final file and its temporary one.
          const backups = path.join(work, "backups");
          fs.mkdirSync(backups);
          const file = path.join(backups, "hallmark.db");
          const { result: made, seen } = await watchModes(backups, () => admin(["backup", file], env));
          expect(made.code, made.output).toBe(0);
          expect(mode(file)).toBe(0o600);
          for (const [name, m] of seen) expect({ name, mode: m }).toEqual({ name, mode: 0o600 });

          // Restored from a copy anyone may read: the database it makes is still the owner's alone.
          const loose = path.join(backups, "loose.db");
          fs.copyFileSync(file, loose);
          fs.chmodSync(loose, 0o644);
          const restored = path.join(work, "restored");
          fs.mkdirSync(restored, { mode: 0o700 });
          fs.copyFileSync(path.join(dataDir, "master.key"), path.join(restored, "master.key"));
          const into = { ...env, HALLMARK_DATA_DIR: restored, DATABASE_URL: `file:${path.join(restored, "hallmark.db")}` };
          const { result: back, seen: during } = await watchModes(restored, () => admin(["restore", loose], into));
          expect(back.code, back.output).toBe(0);
          expect(mode(path.join(restored, "hallmark.db"))).toBe(0o600);
          for (const [name, m] of during) expect({ name, mode: m }).toEqual({ name, mode: 0o600 });
        } finally {
          await server.stop();
        }
      } finally {
        process.umask(umask);
      }
    },
    300_000,
  );
});
