// The migration after which a private protection's fingerprint has no windows (so lookups never
// read it) clears them, on both databases: a database migrated up to the migration before it,
// holding a public and a private protection's fingerprints with their windows, comes out with
// the public one's windows and hash bytes as they were and the private one's null.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresAdminUrl } from "@/server/test-support/postgres-admin-url.mjs";

const NAME = "_lookups_read_public_rows_only";
const STRICT = process.env.HALLMARK_TEST_STRICT === "1";

/** The migrations' SQL in order, split at the one under test: those before it, and it. */
function migrations(folder: string): { before: string[]; it: string } {
  const dirs = fs
    .readdirSync(folder)
    .filter((d) => fs.statSync(path.join(folder, d)).isDirectory())
    .sort();
  const at = dirs.findIndex((d) => d.endsWith(NAME));
  expect(at).toBeGreaterThan(0);
  const sql = (d: string) => fs.readFileSync(path.join(folder, d, "migration.sql"), "utf8");
  return { before: dirs.slice(0, at).map(sql), it: sql(dirs[at]!) };
}

const rows = () => {
  const at = new Date().toISOString();
  return ["public", "private"].map((visibility) => ({ id: randomUUID(), visibility, at, hash: "ab".repeat(32) }));
};

describe("clearing private protections' fingerprint windows", () => {
  it("on SQLite: a private protection's windows and hash bytes are cleared, a public one's kept", () => {
    const { before, it: migration } = migrations("prisma/migrations");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-backfill-"));
    const db = new Database(path.join(dir, "h.db"));
    try {
      for (const sql of before) db.exec(sql);
      db.pragma("foreign_keys = OFF");
      for (const r of rows()) {
        db.prepare(
          "INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, category, visibility, created_at) VALUES (?, 't', 'u', ?, 'h', 'other', ?, ?)",
        ).run(r.id, randomUUID(), r.visibility, r.at);
        db.prepare(
          "INSERT INTO fingerprints (protection_id, alg, hash, quality, created_at, w0, hash_bytes) VALUES (?, 'pdq', ?, 90, ?, 43947, ?)",
        ).run(r.id, r.hash, r.at, Buffer.from(r.hash, "hex"));
      }
      db.exec(migration);
      const got = db
        .prepare(
          "SELECT p.visibility, f.w0, hex(f.hash_bytes) AS bytes FROM fingerprints f JOIN protections p ON p.id = f.protection_id ORDER BY p.visibility",
        )
        .all();
      expect(got).toEqual([
        { visibility: "private", w0: null, bytes: "" },
        { visibility: "public", w0: 43947, bytes: "AB".repeat(32) },
      ]);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3000 });
  const name = `hallmark_backfill_${process.pid}_${Date.now()}`;
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
  });

  it("on PostgreSQL: the same", async (ctx) => {
    if (
      !(await admin.connect().then(
        () => true,
        () => false,
      ))
    ) {
      if (STRICT) throw new Error(`no PostgreSQL at ${postgresAdminUrl}`);
      return ctx.skip(`no PostgreSQL at ${postgresAdminUrl}`);
    }
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const { before, it: migration } = migrations("prisma/postgres/migrations");
      for (const sql of before) await client.query(sql);
      // The rows' tenant and user are beside the point: their foreign keys are not checked here.
      await client.query("SET session_replication_role = replica");
      for (const r of rows()) {
        await client.query(
          "INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, category, visibility, created_at) VALUES ($1, 't', 'u', $2, 'h', 'other', $3, $4)",
          [r.id, randomUUID(), r.visibility, r.at],
        );
        await client.query(
          "INSERT INTO fingerprints (protection_id, alg, hash, quality, created_at, w0, hash_bytes) VALUES ($1, 'pdq', $2, 90, $3, 43947, decode($2, 'hex'))",
          [r.id, r.hash, r.at],
        );
      }
      await client.query("SET session_replication_role = DEFAULT");
      await client.query(migration);
      const { rows: got } = await client.query(
        "SELECT p.visibility, f.w0, encode(f.hash_bytes, 'hex') AS bytes FROM fingerprints f JOIN protections p ON p.id = f.protection_id ORDER BY p.visibility",
      );
      expect(got).toEqual([
        { visibility: "private", w0: null, bytes: null },
        { visibility: "public", w0: 43947, bytes: "ab".repeat(32) },
      ]);
    } finally {
      await client.end();
    }
  });
});
