import "server-only";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../config";
import { getMasterKey } from "../crypto/master-key";
import { getDb } from "../db";
import { getLatestCheckpoint } from "../domain/public-log";
import { getLogIdentity } from "../log/log-identity";
import { logger } from "../observability/logger.mjs";

export type CheckName = "database" | "migrations" | "log" | "master_key";
export interface Readiness {
  ready: boolean;
  /** Which checks passed. Why one failed is in the server's log only: this answer is public. */
  checks: Record<CheckName, { ok: boolean }>;
}

/** Each check gives up after this: a database that does not answer is not ready. */
const CHECK_TIMEOUT_MS = 2_000;

let migrationNames: string[] | undefined;

/** The migrations this build ships (the folder start.mjs applies from), read once. */
function shippedMigrations(): string[] {
  if (!migrationNames) {
    const folder = path.join(
      /*turbopackIgnore: true*/ process.cwd(),
      getConfig().dbKind === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations",
    );
    migrationNames = fs.readdirSync(folder).filter((d) => fs.existsSync(path.join(folder, d, "migration.sql")));
  }
  return migrationNames;
}

async function database(): Promise<void> {
  const db = getDb();
  // On SQLite, the file at the configured path must still be there: an open connection to a
  // deleted or moved file would answer and then lose everything written to it.
  if (db.sqlite && !fs.existsSync(db.sqlite.file)) throw new Error(`${db.sqlite.file} is missing`);
  await db.read.$queryRawUnsafe("SELECT 1");
}

async function migrations(): Promise<void> {
  const rows = await getDb().read.$queryRawUnsafe<{ migration_name: string }[]>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  const pending = shippedMigrations().filter((m) => !applied.has(m));
  if (pending.length) throw new Error(`not applied: ${pending.join(", ")}`);
}

async function log(): Promise<void> {
  await getLatestCheckpoint();
}

async function masterKey(): Promise<void> {
  getMasterKey();
  // The log's private key is sealed with it: opening the identity proves it is the right one.
  await getLogIdentity();
}

async function run(name: CheckName, fn: () => Promise<void>): Promise<{ ok: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true };
  } catch (err) {
    logger.warn({ check: name, reason: err instanceof Error ? err.message.split("\n")[0]!.slice(0, 300) : String(err) }, "not ready");
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether this instance can serve: its database answers, is migrated, its log head reads, its master key opens the log key. */
export async function readiness(): Promise<Readiness> {
  const [db, mig, lg, key] = await Promise.all([
    run("database", database),
    run("migrations", migrations),
    run("log", log),
    run("master_key", masterKey),
  ]);
  const checks = { database: db, migrations: mig, log: lg, master_key: key };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
