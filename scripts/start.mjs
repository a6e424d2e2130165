#!/usr/bin/env node
// @ts-check
// Validates the configuration, applies pending migrations (if any), then serves Hallmark.
//   node scripts/start.mjs          the production server (after `npm run build`)
//   node scripts/start.mjs --dev    the development server
// Both are scripts/serve.mjs: Next.js's request handler behind Hallmark's gate.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { readEnvOrExit, serverNodeArgs } from "../server/env.mjs";
import { logger } from "../server/observability/logger.mjs";
import { refuseUnsafeSqliteAddon } from "../server/sqlite-addon.mjs";

const env = readEnvOrExit();
refuseUnsafeSqliteAddon(env.dbKind);
const dev = process.argv.includes("--dev");
if (!dev && !fs.existsSync(`${process.env.HALLMARK_DIST_DIR || ".next"}/BUILD_ID`)) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}
if (!fs.existsSync("server/generated/sqlite")) execFileSync("node", ["scripts/prisma.mjs", "generate"], { stdio: "inherit" });
// Only when a migration is pending: checking is a plain read (milliseconds), while Prisma's
// migration engine takes seconds even with nothing to do and, on SQLite, cannot open a database
// another instance is serving (an overlapping restart).
execFileSync("node", ["scripts/prisma.mjs", "deploy", "--if-needed"], { stdio: ["ignore", "ignore", "inherit"] });
logger.info({ db: env.dbKind }, "database migrated");

const args = [...serverNodeArgs(), "scripts/serve.mjs", ...(dev ? ["--dev"] : []), "-p", String(env.port)];
const child = spawn(process.execPath, args, {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: env.databaseUrl },
});
for (const sig of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
