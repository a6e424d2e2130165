// `node_modules/.bin/tsx --conditions=react-server bench/micro.ts [hash] [sqlite] [pg] [argon2]
// [migrate]`: the in-process figures behind single choices in the code, each beside its
// alternative in the same process where it has one (docs/performance.md, "Choices in the hot
// paths" and beside the paths they concern). Without an argument, all of them.
//   hash    RFC 9162 leaf and node hashes: server/crypto/hash.ts (node:crypto) against lib/verify's
//   sqlite  on a freshly migrated SQLite file of 100,000 tree nodes: a row by its key through
//           Prisma against a prepared statement (server/store/sqlite-store.ts), and 32 nodes in
//           one UNION ALL statement against one statement each
//   pg      the CPU this process spends on a round trip of a named statement to PostgreSQL (the
//           tests' server: HALLMARK_TEST_PG_URL, else the local one), for which
//           server/store/pg-reads.ts batches lookups
//   argon2  32 password hashes at once (server/crypto/passwords.ts), as a sign-up run leaves queued
//   migrate Prisma's migration engine (scripts/prisma.mjs deploy, as npm start runs it when a
//           migration is pending) applying every migration to a fresh SQLite file, then again
//           with nothing to apply
// A timed loop's figure is the median of 5 runs, after one to warm up.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import pg from "pg";
import { leafHash, nodeHash } from "../lib/verify/merkle";
import { leafHashNode, nodeHashNode } from "../server/crypto/hash";
import { hashPassword } from "../server/crypto/passwords";
import { PrismaClient } from "../server/generated/sqlite/client";
import { postgresAdminUrl } from "../server/test-support/postgres-admin-url.mjs";
import { endedChildrenCpuSeconds } from "./cpu";

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const us = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} µs`;

/** Wall-clock µs per call of `fn`, `n` calls a run: the median of RUNS runs after one to warm up. */
function perCall(n: number, fn: (i: number) => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    if (r > 0) runs.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  return median(runs);
}

/** As perCall, for a function whose answer is awaited (one call at a time). */
async function perAwaitedCall(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    if (r > 0) runs.push(Number(process.hrtime.bigint() - start) / 1000 / n);
  }
  return median(runs);
}

function hashes(): string[] {
  const leaf = crypto.randomBytes(300);
  const [a, b] = [crypto.randomBytes(32), crypto.randomBytes(32)];
  const n = 200_000;
  const nodeNative = perCall(n, () => nodeHashNode(a, b));
  const nodePortable = perCall(n, () => nodeHash(a, b));
  const leafNative = perCall(n, () => leafHashNode(leaf));
  const leafPortable = perCall(n, () => leafHash(leaf));
  return [
    `node hash: node:crypto ${us(nodeNative)}, lib/verify ${us(nodePortable)} (${(nodePortable / nodeNative).toFixed(1)}x)`,
    `leaf hash, 300 bytes: node:crypto ${us(leafNative)}, lib/verify ${us(leafPortable)} (${(leafPortable / leafNative).toFixed(1)}x)`,
  ];
}

/** Applies every migration to a new SQLite file in `dir`; answers the file. */
function migrated(dir: string): string {
  const file = path.join(dir, "hallmark.db");
  execFileSync("node", ["scripts/prisma.mjs", "deploy"], {
    stdio: "ignore",
    env: { ...process.env, DATABASE_URL: `file:${file}`, HALLMARK_DATA_DIR: dir },
  });
  return file;
}

async function sqlite(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-micro-"));
  try {
    const file = migrated(dir);
    const db = new Database(file);
    const count = 100_000;
    const insert = db.prepare('INSERT INTO log_nodes (level, "index", hash) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(i % 8, Math.floor(i / 8), crypto.randomBytes(32));
    })();
    const at = (i: number) => ({ level: (i * 7919) % 8, index: Math.floor(((i * 7919) % count) / 8) });
    const seek = 'SELECT level, "index", hash FROM log_nodes WHERE level = ? AND "index" = ?';
    const one = db.prepare(seek);
    const union = db.prepare(Array.from({ length: 32 }, () => seek).join(" UNION ALL "));
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }) });
    await prisma.logNode.findUnique({ where: { level_index: { level: 0, index: 0n } } });
    const viaPrisma = await perAwaitedCall(2_000, (i) => {
      const p = at(i);
      return prisma.logNode.findUnique({ where: { level_index: { level: p.level, index: BigInt(p.index) } } });
    });
    const prepared = perCall(50_000, (i) => {
      const p = at(i);
      return one.get(p.level, p.index);
    });
    const args = (i: number) => Array.from({ length: 32 }, (_, k) => at(i * 32 + k)).flatMap((p) => [p.level, p.index]);
    const inOne = perCall(5_000, (i) => union.all(...args(i)));
    const eachAlone = perCall(5_000, (i) => {
      const a = args(i);
      for (let k = 0; k < 32; k++) one.get(a[2 * k], a[2 * k + 1]);
    });
    await prisma.$disconnect();
    db.close();
    return [
      `a row by its key: Prisma findUnique ${us(viaPrisma)}, prepared statement ${us(prepared)} (${(viaPrisma / prepared).toFixed(0)}x)`,
      `32 nodes: one UNION ALL statement ${us(inOne)}, one statement each ${us(eachAlone)} (${(eachAlone / inOne).toFixed(1)}x)`,
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(): Promise<string[]> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  try {
    await client.connect();
  } catch (err) {
    return [`pg: no PostgreSQL at ${postgresAdminUrl} (${(err as Error).message})`];
  }
  const n = 5_000;
  const query = { name: "micro_round_trip", text: "SELECT $1::int AS n" };
  for (let i = 0; i < 500; i++) await client.query({ ...query, values: [i] });
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await client.query({ ...query, values: [i] });
    const used = process.cpuUsage(cpu);
    runs.push((used.user + used.system) / n);
  }
  await client.end();
  return [`a round trip to PostgreSQL: ${us(median(runs))} of this process's CPU (runs ${runs.map((x) => x.toFixed(0)).join(", ")} µs)`];
}

async function argon2(): Promise<string[]> {
  await hashPassword("warm-up");
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: 32 }, (_, i) => hashPassword(`password ${i}`)));
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return [`32 Argon2id hashes at once: ${(wall / 1000).toFixed(2)} s, ${((used.user + used.system) / 1e6).toFixed(2)} s of CPU`];
}

function migrate(): string[] {
  /** Wall and CPU seconds of `fn`'s child processes. */
  const timed = (fn: () => void) => {
    const cpu = endedChildrenCpuSeconds();
    const start = performance.now();
    fn();
    return { wall: (performance.now() - start) / 1000, cpu: endedChildrenCpuSeconds() - cpu };
  };
  const fresh: { wall: number; cpu: number }[] = [];
  const again: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < 3; r++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-micro-"));
    try {
      fresh.push(timed(() => migrated(dir)));
      again.push(timed(() => migrated(dir)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const m = (rs: { wall: number; cpu: number }[]) =>
    `${median(rs.map((r) => r.wall)).toFixed(1)} s, ${median(rs.map((r) => r.cpu)).toFixed(1)} s of CPU`;
  return [`migrations on a fresh SQLite file: ${m(fresh)} (median of 3)`, `the same with nothing pending: ${m(again)} (median of 3)`];
}

const which = process.argv.slice(2);
const wanted = (name: string) => which.length === 0 || which.includes(name);
const lines: string[] = [`Hallmark micro ${new Date().toISOString()}, Node ${process.version}`];
if (wanted("hash")) lines.push(...hashes());
if (wanted("sqlite")) lines.push(...(await sqlite()));
if (wanted("pg")) lines.push(...(await postgres()));
if (wanted("argon2")) lines.push(...(await argon2()));
if (wanted("migrate")) lines.push(...migrate());
console.log(lines.join("\n"));
