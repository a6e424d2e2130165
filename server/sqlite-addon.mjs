// @ts-check
// Refuses a better-sqlite3 addon that would abort the process at a random moment.
//
// node::ObjectWrap is header-only, so an addon carries the version of it that its build's
// headers had. From Node 24.19.0 on, that version adds an environment cleanup hook per object
// and removes it in its destructor, which aborts the process when V8 collects the object outside
// any context (nodejs/node#65446); better-sqlite3 < 13 derives Database and Statement from it.
// Such a build imports the symbol below; a build against other headers does not.
import fs from "node:fs";
import { createRequire } from "node:module";

const OBJECT_WRAP_HOOK = "_ZN4node28RemoveEnvironmentCleanupHookEPN2v87IsolateEPFvPvES3_";

/** The installed better-sqlite3 addon's path, or null when none is built. */
export function sqliteAddonFile() {
  try {
    return createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");
  } catch {
    return null;
  }
}

/** Why the better-sqlite3 addon at `file` cannot be run, or null. */
export function sqliteAddonProblem(file = sqliteAddonFile()) {
  if (!file || !fs.readFileSync(file).includes(OBJECT_WRAP_HOOK)) return null;
  return (
    `${file} was built against Node ${process.versions.node.split(".")[0]} headers whose node::ObjectWrap aborts the ` +
    "process under garbage collection (nodejs/node#65446). Reinstall with older headers of the same major: " +
    'npm_config_nodedir="$(node scripts/node-version.mjs 24 --headers)" npm ci (README, Node versions).'
  );
}

/**
 * Exits with the reason when the database is SQLite and its addon is one that would abort.
 * @param {"sqlite" | "postgres"} dbKind
 */
export function refuseUnsafeSqliteAddon(dbKind) {
  if (dbKind !== "sqlite") return;
  const problem = sqliteAddonProblem();
  if (!problem) return;
  console.error(`[hallmark] ${problem}`);
  process.exit(1);
}
