// Backup and restore of the SQLite database, for `npm run admin -- backup | restore`.
//
// Contracts:
// - A backup is one consistent snapshot of the database, taken with SQLite's online backup API
//   while servers go on reading and writing (WAL readers do not block writers). It is a plain
//   single-file database (rollback journal, no -wal beside it), mode 0600, with the final name
//   only once it is complete, checked and on disk: it is written to a temporary file beside it,
//   then renamed over any older file of that name.
// - The master key is not in the database. A backup names where it comes from; only with
//   --include-master-key is it written, to `<file>.master-key` (mode 0600), a file that serves
//   as `<data dir>/master.key` as it is.
// - A restore writes only into an empty data directory (a `master.key` may already be there) and
//   only a file that is Hallmark's SQLite database, intact, whose log key opens with the master
//   key the server will use. A refused restore leaves everything as it was. Newer migrations are
//   applied by the next normal start.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { readEnv, type HallmarkEnv } from "@/server/env.mjs";
import { copyToPrivateFile, createPrivateFile, makePrivateDir, PRIVATE_FILE_MODE } from "@/server/private-files.mjs";
import { openPrivateKey } from "@/server/crypto/key-custody";
import { getMasterKey } from "@/server/crypto/master-key";
import { localOf } from "@/server/merkle/positions";

/** An answer to the operator: printed, with the exit code (2: refused, nothing changed). */
export class Refusal extends Error {}

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../prisma/migrations");
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
const MASTER_KEY_FILE = "master.key";
const SIDE_FILES = ["-wal", "-shm", "-journal"];

const sqliteFile = (env: HallmarkEnv) => path.resolve(env.databaseUrl.replace(/^file:/, ""));

function refuseOnPostgres(env: HallmarkEnv, what: "backup" | "restore"): void {
  if (env.dbKind !== "postgres") return;
  throw new Refusal(
    what === "backup"
      ? 'DATABASE_URL is PostgreSQL: back it up with PostgreSQL\'s own tools, e.g. `pg_dump -Fc -f hallmark.dump "$DATABASE_URL"` (see docs/operating.md, Backup and restore).'
      : 'DATABASE_URL is PostgreSQL: restore a `pg_dump -Fc` dump with `pg_restore --no-owner -d "$DATABASE_URL" hallmark.dump` into an empty database, then start Hallmark (see docs/operating.md, Backup and restore).',
  );
}

/** Where the server's master key comes from, by name: the value itself never leaves here. */
export interface MasterKeySource {
  source: "env" | "file";
  /** HALLMARK_MASTER_KEY, or the key file's path. */
  name: string;
}

function masterKeySource(env: HallmarkEnv): MasterKeySource {
  return env.masterKey ? { source: "env", name: "HALLMARK_MASTER_KEY" } : { source: "file", name: path.join(env.dataDir, MASTER_KEY_FILE) };
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename in `dir` durable. */
function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function removeWithSideFiles(file: string): void {
  for (const f of [file, ...SIDE_FILES.map((s) => file + s)]) fs.rmSync(f, { force: true });
}

interface Inspection {
  migrations: string[];
  origin: string | null;
  treeSize: number | null;
  privateKeyEnc: string | null;
}

/**
 * What a database file holds, once it is known to be Hallmark's and intact: it has
 * `_prisma_migrations` with this checkout's first migration applied, none this checkout does
 * not know, and `PRAGMA integrity_check` answers ok.
 */
function inspect(db: Database.Database, label: string): Inspection {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
  if (!hasTable) throw new Refusal(`${label} is a SQLite database but not Hallmark's: it has no _prisma_migrations table.`);
  const migrations = (
    db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL").all() as {
      migration_name: string;
    }[]
  ).map((r) => r.migration_name);
  const known = fs.readdirSync(MIGRATIONS_DIR).filter((d) => fs.existsSync(path.join(MIGRATIONS_DIR, d, "migration.sql")));
  if (!migrations.includes(known[0]!))
    throw new Refusal(`${label} is not Hallmark's database: its first migration ${known[0]} is not applied.`);
  const unknown = migrations.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new Refusal(
      `${label} was made by a newer Hallmark (migrations ${unknown.join(", ")} are not in this checkout): restore it with that version.`,
    );
  const integrity = (db.pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check);
  if (integrity.join() !== "ok") throw new Refusal(`${label} fails PRAGMA integrity_check:\n  ${integrity.slice(0, 10).join("\n  ")}`);
  const log = db.prepare("SELECT origin, tree_size, private_key_enc FROM log WHERE id = 1").get() as
    | { origin: string; tree_size: number | bigint; private_key_enc: string }
    | undefined;
  return {
    migrations,
    origin: log?.origin ?? null,
    // The current log's own size (the row holds its stored position, server/merkle/positions.ts).
    treeSize: log ? localOf(log.tree_size) : null,
    privateKeyEnc: log?.private_key_enc ?? null,
  };
}

export interface BackupResult {
  backup: string;
  database: string;
  bytes: number;
  origin: string | null;
  tree_size: number | null;
  migrations: number;
  master_key: MasterKeySource & { copy: string | null };
}

/** A consistent copy of the configured SQLite database at `target`, taken while it is in use. */
export async function backup(target: string, opts: { includeMasterKey: boolean }): Promise<BackupResult> {
  const env = readEnv();
  refuseOnPostgres(env, "backup");
  const source = sqliteFile(env);
  const file = path.resolve(target);
  if (!fs.existsSync(source)) throw new Refusal(`There is no database at ${source} to back up (DATABASE_URL / HALLMARK_DATA_DIR).`);
  if (file === source || SIDE_FILES.some((s) => file === source + s))
    throw new Refusal("The backup cannot be written over the database itself.");
  if (!fs.existsSync(path.dirname(file)) || !fs.statSync(path.dirname(file)).isDirectory())
    throw new Refusal(`The directory ${path.dirname(file)} does not exist.`);
  if (fs.existsSync(file) && !fs.statSync(file).isFile()) throw new Refusal(`${file} exists and is not a file.`);
  const key = masterKeySource(env);
  const keyCopy = `${file}.master-key`;
  let keyText: string | undefined;
  if (opts.includeMasterKey) {
    if (key.source === "env") keyText = `${env.masterKey!.trim()}\n`;
    else if (fs.existsSync(key.name)) keyText = fs.readFileSync(key.name, "utf8");
    else throw new Refusal(`--include-master-key: there is no master key at ${key.name} and HALLMARK_MASTER_KEY is not set.`);
  }

  const tmp = `${file}.tmp-${process.pid}`;
  const tmpKey = `${keyCopy}.tmp-${process.pid}`;
  try {
    // It holds what the database holds (password and key hashes, sealed private keys): owner-only
    // from its creation (SQLite writes the pages into the file as it is, mode included).
    fs.rmSync(tmp, { force: true });
    createPrivateFile(tmp);
    const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      // All pages in one step, under one read transaction: a consistent snapshot that writers,
      // in WAL mode, do not wait for. (Copied in small steps, any commit between two steps
      // would restart the copy, and a busy server could keep it from ever finishing.)
      await db.backup(tmp, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    const copy = new Database(tmp, { fileMustExist: true });
    let inspection: Inspection;
    try {
      inspection = inspect(copy, "The copy");
      // One self-contained file: no -wal to keep beside it. The server sets WAL again on open.
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    fsyncFile(tmp);
    if (keyText !== undefined) {
      fs.writeFileSync(tmpKey, keyText, { mode: PRIVATE_FILE_MODE, flag: "wx" });
      fsyncFile(tmpKey);
      fs.renameSync(tmpKey, keyCopy);
    }
    fs.renameSync(tmp, file);
    fsyncDir(path.dirname(file));
    return {
      backup: file,
      database: source,
      bytes: fs.statSync(file).size,
      origin: inspection.origin,
      tree_size: inspection.treeSize,
      migrations: inspection.migrations.length,
      master_key: { ...key, copy: keyText !== undefined ? keyCopy : null },
    };
  } finally {
    removeWithSideFiles(tmp);
    fs.rmSync(tmpKey, { force: true });
  }
}

export interface RestoreResult {
  database: string;
  data_dir: string;
  origin: string | null;
  tree_size: number | null;
  migrations: number;
  master_key: MasterKeySource & { installed_from: string | null };
}

/**
 * Puts the backup `from` in place as the configured SQLite database. The configuration
 * (DATABASE_URL, HALLMARK_DATA_DIR, HALLMARK_MASTER_KEY) is read from process.env as the server
 * will read it, and the master key through the server's own getMasterKey: so a caller that
 * changes process.env does it before anything reads the configuration.
 */
export function restore(from: string): RestoreResult {
  const env = readEnv();
  refuseOnPostgres(env, "restore");
  const target = sqliteFile(env);
  const src = path.resolve(from);
  const dataDir = env.dataDir;

  // The target: nothing there yet. Checked before anything is written.
  for (const f of [target, ...SIDE_FILES.map((s) => target + s)])
    if (fs.existsSync(f)) throw new Refusal(`${f} already exists: restore only into an empty data directory (nothing was changed).`);
  const present = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((n) => n !== MASTER_KEY_FILE) : [];
  if (present.length)
    throw new Refusal(
      `The data directory ${dataDir} is not empty (${present.slice(0, 5).join(", ")}${present.length > 5 ? ", …" : ""}): restore only into an empty one (nothing was changed).`,
    );
  if (fs.existsSync(path.dirname(target)) && !fs.statSync(path.dirname(target)).isDirectory())
    throw new Refusal(`${path.dirname(target)} is not a directory.`);

  // The source: a SQLite file, whole by itself.
  if (!fs.existsSync(src) || !fs.statSync(src).isFile()) throw new Refusal(`${src} is not a file.`);
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(src, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER)) throw new Refusal(`${src} is not a SQLite database.`);
  if (fs.existsSync(`${src}-wal`) && fs.statSync(`${src}-wal`).size > 0)
    throw new Refusal(
      `${src}-wal lies beside it: that file may hold committed data the database file alone lacks. Restore a backup made with \`npm run admin -- backup\`.`,
    );

  // The master key the server will use: HALLMARK_MASTER_KEY, or <data dir>/master.key, which
  // the backup's `<file>.master-key` becomes when there is neither.
  const key = masterKeySource(env);
  const keyCopy = `${src}.master-key`;
  const installKey = key.source === "file" && !fs.existsSync(key.name);
  if (installKey && !fs.existsSync(keyCopy))
    throw new Refusal(
      `No master key: set HALLMARK_MASTER_KEY, or put the key in ${key.name}, as the server will run (the backup has no ${path.basename(keyCopy)} beside it). Without it the server would make a new key, and the private keys in the backup could not be used.`,
    );

  const createdDirs: string[] = [];
  for (let d = path.dirname(target); !fs.existsSync(d); d = path.dirname(d)) createdDirs.push(d);
  for (let d = dataDir; !fs.existsSync(d) && !createdDirs.includes(d); d = path.dirname(d)) createdDirs.push(d);
  const tmp = `${target}.restore-${process.pid}`;
  const tmpKey = `${key.name}.restore-${process.pid}`;
  let done = false;
  try {
    makePrivateDir(path.dirname(target));
    makePrivateDir(dataDir);
    // Owner-only whatever the backup file's mode (a copy with fs.copyFileSync would take it over).
    copyToPrivateFile(src, tmp);
    const db = new Database(tmp, { fileMustExist: true });
    let inspection: Inspection;
    try {
      inspection = inspect(db, src);
    } finally {
      db.close();
    }
    fsyncFile(tmp);
    if (installKey) {
      fs.writeFileSync(tmpKey, fs.readFileSync(keyCopy), { mode: PRIVATE_FILE_MODE, flag: "wx" });
      fsyncFile(tmpKey);
      fs.renameSync(tmpKey, key.name);
    }
    if (inspection.privateKeyEnc !== null) {
      try {
        getMasterKey();
        openPrivateKey(inspection.privateKeyEnc, `log:${inspection.origin}`);
      } catch {
        throw new Refusal(
          `The master key (${installKey ? `${keyCopy}, for ${key.name}` : key.name}) does not open this backup's log key: restore with the master key the backup was made with (nothing was changed).`,
        );
      }
    }
    fs.renameSync(tmp, target);
    fsyncDir(path.dirname(target));
    done = true;
    return {
      database: target,
      data_dir: dataDir,
      origin: inspection.origin,
      tree_size: inspection.treeSize,
      migrations: inspection.migrations.length,
      master_key: { ...key, installed_from: installKey ? keyCopy : null },
    };
  } finally {
    removeWithSideFiles(tmp);
    fs.rmSync(tmpKey, { force: true });
    if (!done) {
      if (installKey) fs.rmSync(key.name, { force: true });
      for (const d of createdDirs) fs.rmSync(d, { recursive: true, force: true });
    }
  }
}
