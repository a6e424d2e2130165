#!/usr/bin/env node
// @ts-check
// Prisma on its WebAssembly engines, for both databases from one schema.
//   generate           derive prisma/postgres/schema.prisma and generate both clients
//   deploy             apply migrations to DATABASE_URL (SQLite file or PostgreSQL)
//   deploy --if-needed only when a migration is pending: Prisma's engine locks a SQLite file
//                      exclusively, so it cannot run beside a running server that needs nothing
//   migration <name>   write a new migration for both databases (needs no database)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { readEnv } from "../server/env.mjs";
import { createPrivateFile, makePrivateDir } from "../server/private-files.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");
const SQLITE_SCHEMA = "prisma/schema.prisma";
const PG_SCHEMA = "prisma/postgres/schema.prisma";
// The schema as of the newest migration: the base a new migration is diffed from.
const MIGRATED_SCHEMA = "prisma/schema.migrated.prisma";

/** @typedef {"inherit" | "capture" | "quiet"} OutputMode */

/**
 * capture: return stdout. quiet: print prisma's output only if it fails.
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @param {OutputMode} [mode]
 */
function prisma(args, env = {}, mode = "inherit") {
  try {
    return run(args, env, mode);
  } catch (err) {
    // execFileSync's error carries the child's output.
    const { stdout, stderr } = /** @type {{ stdout?: string, stderr?: string }} */ (err);
    if (mode === "quiet") process.stderr.write(`${stdout ?? ""}${stderr ?? ""}`);
    throw err;
  }
}

/**
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @param {OutputMode} mode
 */
function run(args, env, mode) {
  return execFileSync(prismaBin, args, {
    cwd: root,
    stdio: mode === "inherit" ? "inherit" : mode === "capture" ? ["ignore", "pipe", "inherit"] : "pipe",
    encoding: "utf8",
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
      PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      ...env,
    },
  });
}

/** @param {string} schema */
function toPostgres(schema) {
  return (
    "// GENERATED from prisma/schema.prisma by scripts/prisma.mjs: do not edit.\n" +
    schema
      .replace('provider = "sqlite"', 'provider = "postgresql"')
      .replace("../server/generated/sqlite", "../../server/generated/postgres")
      .replace(/url\s+= "file:[^"]*".*/, 'url      = "postgresql://placeholder" // the driver adapter connects')
  );
}

function writePostgresSchema(from = SQLITE_SCHEMA, to = PG_SCHEMA) {
  fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
  fs.writeFileSync(path.join(root, to), toPostgres(fs.readFileSync(path.join(root, from), "utf8")));
}

function generate() {
  writePostgresSchema();
  prisma(["generate", "--schema", SQLITE_SCHEMA]);
  prisma(["generate", "--schema", PG_SCHEMA]);
}

const APPLIED = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

/**
 * Names of migrations in the folder that the database has not applied (a plain read).
 * @param {import("../server/env.mjs").HallmarkEnv} env
 */
async function pendingMigrations(env) {
  const folder = path.join(root, env.dbKind === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations");
  const all = fs.readdirSync(folder).filter((d) => fs.existsSync(path.join(folder, d, "migration.sql")));
  /** @type {string[]} */
  let applied = [];
  if (env.dbKind === "sqlite") {
    const file = env.databaseUrl.replace(/^file:/, "");
    if (!fs.existsSync(file)) return all;
    const db = new Database(file, { readonly: true, timeout: 5000 });
    try {
      applied = /** @type {{ migration_name: string }[]} */ (db.prepare(APPLIED).all()).map((r) => r.migration_name);
    } catch {
      // no migrations table yet
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      applied = (await client.query(APPLIED)).rows.map((/** @type {{ migration_name: string }} */ r) => r.migration_name);
    } catch {
      // no migrations table yet
    } finally {
      await client.end();
    }
  }
  return all.filter((m) => !applied.includes(m));
}

async function deploy() {
  const env = readEnv();
  if (process.argv.includes("--if-needed") && (await pendingMigrations(env)).length === 0) return;
  if (env.dbKind === "sqlite") {
    // The database (and so its -wal and -shm) owner-only from the start, before Prisma opens it.
    const file = env.databaseUrl.replace(/^file:/, "");
    makePrivateDir(env.dataDir);
    makePrivateDir(path.dirname(path.resolve(file)));
    createPrivateFile(file);
  }
  const config = env.dbKind === "sqlite" ? "prisma/sqlite.config.ts" : "prisma/postgres.config.ts";
  prisma(["migrate", "deploy", "--config", config], { DATABASE_URL: env.databaseUrl }, "quiet");
}

/**
 * @param {string} config
 * @param {string} fromSchema
 * @param {string} toSchema
 */
function diffScript(config, fromSchema, toSchema) {
  const out = prisma(
    ["migrate", "diff", "--config", config, "--from-schema-datamodel", fromSchema, "--to-schema-datamodel", toSchema, "--script"],
    // The PostgreSQL engine connects even to diff two files; any reachable server will do.
    {
      DATABASE_URL: config.includes("postgres")
        ? (process.env.HALLMARK_PG_DIFF_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres")
        : "file::memory:",
    },
    "capture",
  );
  return (
    out
      .split("\n")
      .filter((l) => !l.startsWith("Loaded Prisma config"))
      .join("\n")
      .trim() + "\n"
  );
}

/** @param {string | undefined} name */
function newMigration(name) {
  if (!/^[a-z0-9_]+$/.test(name ?? "")) throw new Error("usage: migration <snake_case_name>");
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = `${stamp}_${name}`;
  writePostgresSchema();
  const oldPg = "prisma/postgres/schema.migrated.prisma";
  writePostgresSchema(MIGRATED_SCHEMA, oldPg);
  /** @type {[string, string][]} */
  const targets = [
    ["prisma/migrations", diffScript("prisma/sqlite.config.ts", MIGRATED_SCHEMA, SQLITE_SCHEMA)],
    ["prisma/postgres/migrations", diffScript("prisma/postgres.config.ts", oldPg, PG_SCHEMA)],
  ];
  fs.rmSync(path.join(root, oldPg));
  for (const [folder, sql] of targets) {
    fs.mkdirSync(path.join(root, folder, dir), { recursive: true });
    fs.writeFileSync(path.join(root, folder, dir, "migration.sql"), sql);
  }
  fs.copyFileSync(path.join(root, SQLITE_SCHEMA), path.join(root, MIGRATED_SCHEMA));
  console.log(`wrote ${dir} for SQLite and PostgreSQL`);
}

const [cmd, arg] = process.argv.slice(2);
/** @type {Record<string, () => unknown>} */
const commands = { generate, deploy, migration: () => newMigration(arg) };
const command = commands[cmd ?? ""];
if (!command) {
  console.error("usage: node scripts/prisma.mjs generate | deploy | migration <name>");
  process.exit(2);
}
try {
  await command();
} catch (err) {
  // prisma has already printed its own error; a stack of execFileSync adds nothing.
  const { status, message } = /** @type {Error & { status?: number | null }} */ (err);
  console.error(`prisma ${cmd} failed${status ? ` (exit ${status})` : `: ${message}`}`);
  process.exit(1);
}
