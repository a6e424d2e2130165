// A fresh log for unit tests: a temporary data directory with its SQLite file (or, with
// useTemporaryPostgres, a fresh database on the local PostgreSQL server), migrations applied,
// an organisation and a real issuer with its signing key. Call at the top of a test file,
// before anything imports server modules (they read the environment on first use).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { copyToPrivateFile } from "../private-files.mjs";
import { postgresAdminUrl as adminUrl } from "./postgres-admin-url.mjs";

export interface TestLog {
  db: typeof import("../db");
  store: typeof import("../store");
  append: typeof import("../log/log-append");
  identity: typeof import("../log/log-identity");
  sequencer: typeof import("../log/sequencer");
  tenantId: string;
  issuerId: string;
  kid: string;
  /** An entry of this tenant and issuer; the leaf hash is derived from the id. */
  entry(id?: string): import("../log/log-append").LogEntry;
  close(): Promise<void>;
}

export function useTemporaryDataDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-${name}-`));
  process.env.HALLMARK_DATA_DIR = dir;
  process.env.DATABASE_URL = `file:${path.join(dir, "hallmark.db")}`;
  process.env.HALLMARK_MASTER_KEY = crypto.randomBytes(32).toString("hex");
  process.env.HALLMARK_LOG_ORIGIN = `hallmark-unit/${name}`;
  return dir;
}

/**
 * A temporary data directory whose database is a new PostgreSQL database (HALLMARK_TEST_PG_URL,
 * or the local server), dropped by close(); null when no PostgreSQL answers (the caller skips),
 * except under HALLMARK_TEST_STRICT=1 (CI), where a missing server fails the file.
 */
export async function useTemporaryPostgres(name: string): Promise<{ dir: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    if (process.env.HALLMARK_TEST_STRICT === "1")
      throw new Error(`HALLMARK_TEST_STRICT: no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, "//")} (${(err as Error).message})`);
    return null;
  }
  const database = `hallmark_unit_${name.replace(/\W/g, "_")}_${process.pid}_${Date.now()}`;
  const template = inject("postgresTemplate");
  await admin.query(`CREATE DATABASE ${database}${template ? ` TEMPLATE ${template}` : ""}`);
  const dir = useTemporaryDataDir(name);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  process.env.DATABASE_URL = url.toString();
  return {
    dir,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}

/**
 * Migrates the data directory set by useTemporaryDataDir (a copy of the run's migrated template,
 * server/test-support/migrated-templates.ts, else Prisma's migrations) and creates the log, a
 * tenant and an issuer.
 */
export async function openTestLog(dir: string): Promise<TestLog> {
  const url = process.env.DATABASE_URL ?? "";
  const sqliteTemplate = inject("sqliteTemplate");
  if (url.startsWith("file:") && sqliteTemplate) copyToPrivateFile(sqliteTemplate, url.slice("file:".length));
  // useTemporaryPostgres made the database from the template when there is one.
  else if (!(url.startsWith("postgres") && inject("postgresTemplate")))
    execFileSync("node", ["scripts/prisma.mjs", "deploy"], { env: process.env, stdio: "ignore" });
  const [db, store, append, identity, sequencer, tenants, issuers] = await Promise.all([
    import("../db"),
    import("../store"),
    import("../log/log-append"),
    import("../log/log-identity"),
    import("../log/sequencer"),
    import("../domain/accounts"),
    import("../domain/attestations"),
  ]);
  const { tenantId } = await tenants.createOrganization({ name: "unit" });
  const issuer = await issuers.createIssuer({ tenantId, name: "Unit", domain: "unit.example.org" });
  const kid = issuer.keys[0]!.kid;
  await identity.getLogIdentity();
  return {
    db,
    store,
    append,
    identity,
    sequencer,
    tenantId,
    issuerId: issuer.id,
    kid,
    entry: (id = crypto.randomUUID()) => ({
      row: { id, tenantId, issuerId: issuer.id, kid, payload: "{}", signature: "sig", createdAt: new Date() },
      leafHash: new Uint8Array(crypto.createHash("sha256").update(id).digest()),
    }),
    close: async () => {
      await store.closeStore();
      await db.getDb().close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `cases` (a file's describe blocks) on a test log in a fresh SQLite file, opened before
 * them and closed after. Call at the top of a test file, as useTemporaryDataDir.
 */
export function onSqlite(name: string, cases: (log: () => TestLog) => void): void {
  const dir = useTemporaryDataDir(name);
  let m: TestLog;
  beforeAll(async () => {
    m = await openTestLog(dir);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
  });
  cases(() => m);
}

/**
 * The same on a fresh PostgreSQL database, dropped after; without a server the cases are skipped
 * (and under HALLMARK_TEST_STRICT=1 the file fails, see useTemporaryPostgres).
 */
export async function onPostgres(name: string, what: string, cases: (log: () => TestLog) => void): Promise<void> {
  const database = await useTemporaryPostgres(name);
  if (!database) {
    describe(`${what} (PostgreSQL)`, () => {
      it("needs a PostgreSQL server", (ctx) => ctx.skip("no PostgreSQL server answers (HALLMARK_TEST_PG_URL or the local one)"));
    });
    return;
  }
  let m: TestLog;
  beforeAll(async () => {
    m = await openTestLog(database.dir);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await database.drop();
  });
  cases(() => m);
}
