// The unit project's global setup: the migrations applied once per run (scripts/prisma.mjs
// deploy, as a deployment applies them) to a SQLite file and, when PostgreSQL answers, to a
// template database. Each test log then starts from a copy (openTestLog) instead of running
// Prisma's migration engine again for each of some twenty files, which costs seconds each
// (docs/performance.md, "Start to ready").
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { postgresAdminUrl as adminUrl } from "./postgres-admin-url.mjs";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated SQLite file to copy. */
    sqliteTemplate: string;
    /** A migrated PostgreSQL database to create databases from (`CREATE DATABASE … TEMPLATE`), or "" without a server. */
    postgresTemplate: string;
  }
}

const deploy = (env: Record<string, string>) =>
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], { env: { ...process.env, ...env }, stdio: "ignore" });

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-unit-template-"));
  const file = path.join(dir, "hallmark.db");
  deploy({ DATABASE_URL: `file:${file}`, HALLMARK_DATA_DIR: dir });
  project.provide("sqliteTemplate", file);

  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  let template = "";
  // No server: no template, and the PostgreSQL files skip (or, under HALLMARK_TEST_STRICT, fail)
  // on their own. A server that answers but cannot be migrated fails the run here.
  if (
    await admin.connect().then(
      () => true,
      () => false,
    )
  ) {
    const name = `hallmark_unit_template_${process.pid}_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    deploy({ DATABASE_URL: url.toString(), HALLMARK_DATA_DIR: dir });
    template = name;
  }
  project.provide("postgresTemplate", template);

  return async () => {
    if (template) await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
