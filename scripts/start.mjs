#!/usr/bin/env node
// Validates the configuration, applies pending migrations, then serves Hallmark.
//   node scripts/start.mjs          next start (after `npm run build`)
//   node scripts/start.mjs --dev    next dev
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { readEnv } from "../server/env.mjs";

let env;
try {
  env = readEnv();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
const dev = process.argv.includes("--dev");
if (!dev && !fs.existsSync(".next/BUILD_ID")) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}
if (!fs.existsSync("server/generated/sqlite")) execFileSync("node", ["scripts/prisma.mjs", "generate"], { stdio: "inherit" });
execFileSync("node", ["scripts/prisma.mjs", "deploy"], { stdio: ["ignore", "ignore", "inherit"] });
console.log(`[hallmark] ${env.dbKind} database ready; serving ${env.baseUrl}`);

// Idle keep-alive sockets stay open longer than a proxy's or client's reuse window (Node's
// default of 5 s lets a reused socket be closed under the client: "other side closed").
const args = dev ? ["dev", "-p", String(env.port)] : ["start", "-p", String(env.port), "--keepAliveTimeout", "65000"];
const child = spawn("node_modules/.bin/next", args, {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: env.databaseUrl },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
