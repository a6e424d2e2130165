// Similar-image lookup at scale: GET /v1/lookup?pdq= against GET /v1/lookup?content_hash= in the
// same run, with 10^4, 10^5 and 10^6 stored fingerprints, on SQLite and on PostgreSQL. The
// fingerprints are uniformly random 256-bit hashes (each window's 65,536 values equally likely:
// at 10^6, each of the 272 probes of a query meets about 15 of them, 4,150 candidates a lookup,
// read from the window indexes' pages with their hash bytes),
// bulk-written as public protections of one account beside 50 minted public ones; queries
// alternate a hash near a public one (a hit, 5 bits away) and a random one (a miss).
//
// And what a private protection costs a lookup: beside them, 1,000 private protections of one
// content hash and 1,000 private pictures within 5 bits of one PDQ hash. Asking for that hash,
// or near that picture, should take what asking for an unknown one takes (the lookups read only
// public rows): each size reports held/unknown, p50 and p99.
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresAdminUrl } from "../server/test-support/postgres-admin-url.mjs";
import { NO_PDQ_WINDOWS, PDQ_WINDOW_COLUMNS, pdqWindows } from "../lib/fingerprint/pdq-index";
import { mintPublic } from "./mint-public";
import { migrate, type Server, startServer } from "./server";

type Creds = { consumer_key: string };
interface Deps {
  seed(dir: string, leaves: number, databaseUrl?: string): Creds;
}

const SIZES = [10_000, 100_000, 1_000_000];
const PUBLIC = 50;
const QUERIES = 400;

const randomPdq = () => randomBytes(32).toString("hex");
const flip5 = (hash: string) => {
  let n = BigInt(`0x${hash}`);
  for (const b of [3, 60, 111, 170, 250]) n ^= 1n << BigInt(b);
  return n.toString(16).padStart(64, "0");
};

interface Row {
  id: string;
  /** The PDQ hash. */
  hash: string;
  /** Public (found by lookups) or private (never read by one). */
  isPublic: boolean;
  /** The content hash; random when absent. */
  contentHash?: string;
}
/** Writes `rows` as protections with their fingerprints, straight into the database. */
type BulkWriter = (rows: Row[]) => Promise<void>;

// Bulk writes go faster without the 16 window indexes, built again afterwards (each a sort).
// The indexes are the migration's (prisma/migrations/*_fingerprints), names included.
const WINDOW_INDEXES = PDQ_WINDOW_COLUMNS.map((w) => ({
  drop: `DROP INDEX IF EXISTS "fingerprints_${w}_hash_bytes_idx"`,
  create: `CREATE INDEX IF NOT EXISTS "fingerprints_${w}_hash_bytes_idx" ON "fingerprints"("${w}", "hash_bytes")`,
}));
const COLUMNS = `protection_id, alg, hash, quality, created_at, ${PDQ_WINDOW_COLUMNS.join(", ")}, hash_bytes`;
const visibilityOf = (r: Row) => (r.isPublic ? "public" : "private");
/** What the row's fingerprint holds for lookups, as the server writes it: its windows and bytes while public, none while private. */
const windowsOf = (r: Row) => (r.isPublic ? pdqWindows(r.hash) : NO_PDQ_WINDOWS);
const bytesOf = (r: Row) => (r.isPublic ? Buffer.from(r.hash, "hex") : null);

function sqliteWriter(file: string, owner: { userId: string; tenantId: string }): BulkWriter {
  return async (rows) => {
    const db = new Database(file);
    db.pragma("cache_size = -1000000");
    for (const i of WINDOW_INDEXES) db.exec(i.drop);
    const now = new Date().toISOString().replace("Z", "+00:00"); // as the SQLite store writes dates
    const p = db.prepare(
      "INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, category, visibility, verification_count, created_at) VALUES (?, ?, ?, ?, ?, 'other', ?, 0, ?)",
    );
    const f = db.prepare(
      `INSERT INTO fingerprints (${COLUMNS}) VALUES (?, 'pdq', ?, 90, ?, ${PDQ_WINDOW_COLUMNS.map(() => "?").join(", ")}, ?)`,
    );
    db.transaction(() => {
      for (const r of rows) {
        p.run(r.id, owner.tenantId, owner.userId, randomUUID(), r.contentHash ?? randomBytes(32).toString("hex"), visibilityOf(r), now);
        f.run(r.id, r.hash, now, ...windowsOf(r), bytesOf(r));
      }
    })();
    for (const i of WINDOW_INDEXES) db.exec(i.create);
    db.close();
  };
}

function pgWriter(url: string, owner: { userId: string; tenantId: string }): BulkWriter {
  return async (rows) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const i of WINDOW_INDEXES) await client.query(i.drop);
      for (let i = 0; i < rows.length; i += 20_000) {
        const chunk = rows.slice(i, i + 20_000);
        const ids = chunk.map((r) => r.id);
        await client.query(
          `INSERT INTO protections (id, tenant_id, user_id, attestation_id, content_hash, category, visibility, verification_count, created_at)
           SELECT id, $2, $3, gen_random_uuid()::text, coalesce(c, md5(id) || md5(id || 'x')), 'other', v, 0, now()
           FROM unnest($1::text[], $4::text[], $5::text[]) AS t(id, c, v)`,
          [ids, owner.tenantId, owner.userId, chunk.map((r) => r.contentHash ?? null), chunk.map(visibilityOf)],
        );
        const windows = chunk.flatMap(windowsOf);
        await client.query(
          `INSERT INTO fingerprints (${COLUMNS})
           SELECT t.id, 'pdq', t.hash, 90, now(), ${PDQ_WINDOW_COLUMNS.map((_, k) => `($3::int[])[(t.ord - 1) * ${PDQ_WINDOW_COLUMNS.length} + ${k + 1}]`).join(", ")}, CASE WHEN t.p THEN decode(t.hash, 'hex') END
           FROM unnest($1::text[], $2::text[], $4::boolean[]) WITH ORDINALITY AS t(id, hash, p, ord)`,
          [ids, chunk.map((r) => r.hash), windows, chunk.map((r) => r.isPublic)],
        );
      }
      for (const i of WINDOW_INDEXES) await client.query(i.create);
      // What autovacuum does to a table that grew (the migration sets fingerprints' insert
      // threshold low): statistics, and pages marked all-visible for index-only scans.
      await client.query("VACUUM ANALYZE protections");
      await client.query("VACUUM ANALYZE fingerprints");
    } finally {
      await client.end();
    }
  };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** What private protections hold: one content hash 1,000 times, and 1,000 pictures within 5 bits of one PDQ hash. */
interface Held {
  contentHash: string;
  pdq: string;
}
const HELD = 1000;
function heldRows(held: Held): Row[] {
  const near = (i: number) => {
    let n = BigInt(`0x${held.pdq}`);
    for (let b = 0; b < 5; b++) n ^= 1n << BigInt((i * 7 + b * 51) % 256);
    return n.toString(16).padStart(64, "0");
  };
  return Array.from({ length: HELD }, (_, i) => ({ id: randomUUID(), hash: near(i), isPublic: false, contentHash: held.contentHash }));
}

/**
 * Sequential lookups, one kind after the other in turn: per kind p50 and p99 in ms. "held" asks
 * for what only private protections hold, and must answer as "unknown" does, the same empty
 * result in the same time.
 */
async function measure(server: Server, targets: string[], held: Held) {
  const kinds = ["hit", "miss", "hash", "heldHash", "heldPdq"] as const;
  const times = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<(typeof kinds)[number], number[]>;
  const one = async (kind: keyof typeof times, query: string, check: (body: { total: number }) => boolean) => {
    const t = performance.now();
    const res = await fetch(`${server.url}/v1/lookup?${query}`);
    const body = (await res.json()) as { total: number };
    times[kind].push(performance.now() - t);
    if (res.status !== 200 || !check(body)) throw new Error(`lookup ${query} answered ${res.status}: ${JSON.stringify(body)}`);
  };
  for (let i = 0; i < QUERIES; i++) {
    await one("hit", `pdq=${flip5(targets[i % targets.length]!)}`, (b) => b.total >= 1);
    await one("miss", `pdq=${randomPdq()}`, () => true);
    await one("hash", `content_hash=${randomBytes(32).toString("hex")}`, (b) => b.total === 0);
    await one("heldHash", `content_hash=${held.contentHash}`, (b) => b.total === 0);
    await one("heldPdq", `pdq=${held.pdq}`, (b) => b.total === 0);
  }
  const p = (xs: number[]) => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) });
  return Object.fromEntries(kinds.map((k) => [k, p(times[k])])) as Record<(typeof kinds)[number], ReturnType<typeof p>>;
}

async function owner(kind: "sqlite" | "postgres", dir: string, url: string | undefined) {
  if (kind === "sqlite") {
    const db = new Database(path.join(dir, "hallmark.db"), { readonly: true });
    const u = db
      .prepare("SELECT id, tenant_id FROM users WHERE tenant_id IN (SELECT id FROM tenants WHERE kind = 'PERSONAL') LIMIT 1")
      .get() as {
      id: string;
      tenant_id: string;
    };
    db.close();
    return { userId: u.id, tenantId: u.tenant_id };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    "SELECT id, tenant_id FROM users WHERE tenant_id IN (SELECT id FROM tenants WHERE kind = 'PERSONAL') LIMIT 1",
  );
  await client.end();
  return { userId: rows[0].id as string, tenantId: rows[0].tenant_id as string };
}

/** What the fingerprints table and its indexes take on disk. */
async function fingerprintBytes(kind: "sqlite" | "postgres", dir: string, url: string | undefined): Promise<number> {
  if (kind === "sqlite") {
    const db = new Database(path.join(dir, "hallmark.db"), { readonly: true });
    const { bytes } = db
      .prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'fingerprints')")
      .get() as { bytes: number };
    db.close();
    return bytes;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query("SELECT pg_total_relation_size('fingerprints') AS bytes");
  await client.end();
  return Number(rows[0].bytes);
}

async function onDatabase(kind: "sqlite" | "postgres", deps: Deps, url?: string): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hallmark-bench-lookup-${kind}-`));
  const lines: string[] = [];
  try {
    migrate(dir, url);
    const creds = deps.seed(dir, 1, url);
    const who = await owner(kind, dir, url);
    const write = kind === "sqlite" ? sqliteWriter(path.join(dir, "hallmark.db"), who) : pgWriter(url!, who);
    let server = await startServer(dir, { databaseUrl: url });
    const targets = (await mintPublic(server.url, creds.consumer_key, PUBLIC, { fingerprinted: true })).pdqHashes;
    const held: Held = { contentHash: randomBytes(32).toString("hex"), pdq: randomPdq() };
    let stored = PUBLIC;
    for (const size of SIZES) {
      await server.stop();
      const t = performance.now();
      const rows: Row[] = Array.from({ length: size - stored }, () => ({ id: randomUUID(), hash: randomPdq(), isPublic: true }));
      await write(stored === PUBLIC ? [...heldRows(held), ...rows] : rows);
      stored = size;
      const seconds = (performance.now() - t) / 1000;
      const mb = (await fingerprintBytes(kind, dir, url)) / 2 ** 20;
      server = await startServer(dir, { databaseUrl: url });
      await measure(server, targets.slice(0, 10), held); // warm-up
      const r = await measure(server, targets, held);
      const f = (x: { p50: number; p99: number }) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms`;
      const ratio = (a: { p50: number; p99: number }, b: { p50: number; p99: number }) =>
        `p50 ${(a.p50 / b.p50).toFixed(2)}, p99 ${(a.p99 / b.p99).toFixed(2)}`;
      lines.push(
        `${kind} ${size.toLocaleString("en")} fingerprints (written in ${seconds.toFixed(0)} s; the table and its indexes ${mb.toFixed(0)} MB, ${((mb * 2 ** 20) / size).toFixed(0)} bytes each): pdq hit ${f(r.hit)}; pdq miss ${f(r.miss)}; content_hash ${f(r.hash)}; p99 pdq/hash ${(Math.max(r.hit.p99, r.miss.p99) / r.hash.p99).toFixed(2)}`,
        `  held only by ${HELD.toLocaleString("en")} private protections, against unknown: content_hash ${f(r.heldHash)} (held/unknown ${ratio(r.heldHash, r.hash)}); pdq ${f(r.heldPdq)} (held/unknown ${ratio(r.heldPdq, r.miss)})`,
      );
      console.log(lines.slice(-2).join("\n"));
    }
    await server.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

export async function lookupBench(deps: Deps): Promise<string[]> {
  const lines = [
    `similar-image lookup: ${QUERIES} sequential queries of each kind per size (random PDQ hashes stored; see bench/lookup.ts)`,
  ];
  lines.push(...(await onDatabase("sqlite", deps)));
  const adminUrl = postgresAdminUrl;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return [...lines, `postgres: skipped, no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, "//")} (${(err as Error).message})`];
  }
  const name = `hallmark_bench_lookup_${Date.now()}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    lines.push(...(await onDatabase("postgres", deps, url.toString())));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
  return lines;
}
