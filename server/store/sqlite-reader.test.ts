// The read worker itself: errors come back as errors (and a failed statement can succeed
// later), a stopped worker rejects what was sent to it and the next read starts a new one, a
// worker that cannot start fails reads fast, an idle worker never keeps a process alive, and
// it never writes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import type { WorkerReads } from "./sqlite-reader";
import { logger } from "../observability/logger.mjs";

const dir = useTemporaryDataDir("reader");
let m: TestLog;
let reads: WorkerReads;
let Reads: typeof WorkerReads;
const turn = () => new Promise((r) => setImmediate(r)); // the batch of this turn is posted

beforeAll(async () => {
  m = await openTestLog(dir);
  ({ WorkerReads: Reads } = await import("./sqlite-reader"));
  reads = new Reads(`${dir}/hallmark.db`, { cacheMb: 8, mmapMb: 3 });
}, 60_000);

afterAll(async () => {
  await reads?.close();
  await m?.close();
});

describe("SQLite read worker", () => {
  it("runs statements with their arguments, one or all rows", async () => {
    expect(await reads.get("SELECT ? + ? AS n", [2n, 3n])).toEqual({ n: 5n });
    expect(await reads.all("SELECT value FROM json_each(?)", ["[1,2,3]"])).toEqual([{ value: 1n }, { value: 2n }, { value: 3n }]);
    expect(await reads.get("SELECT id FROM issuers WHERE id = ?", [m.issuerId])).toEqual({ id: m.issuerId });
    expect(await reads.get("SELECT id FROM issuers WHERE id = ?", ["nobody"])).toBeUndefined();
  });

  it("rejects a failing statement with SQLite's message and code, and carries on", async () => {
    await expect(reads.get("SELECT * FROM no_such_table", [])).rejects.toMatchObject({
      message: expect.stringMatching(/no such table/),
      code: "SQLITE_ERROR",
    });
    await expect(reads.get("SELECT ?", [])).rejects.toThrow(/parameter/i);
    expect(await reads.get("SELECT 1 AS one", [])).toEqual({ one: 1n });
  });

  it("prepares a statement again after it failed to prepare, once it can", async () => {
    const sql = "SELECT count(*) AS n FROM appears_later";
    await expect(reads.get(sql, [])).rejects.toThrow(/no such table/);
    await expect(reads.get(sql, [])).rejects.toThrow(/no such table/); // the text is kept, not lost
    await m.db.getDb().write((tx) => tx.$executeRawUnsafe("CREATE TABLE appears_later (x INTEGER)"));
    expect(await reads.get(sql, [])).toEqual({ n: 0n });
  });

  it("gives its connection the page cache and map it was given (HALLMARK_SQLITE_CACHE_MB, _MMAP_MB), as SQLite counts them", async () => {
    expect(await reads.get("PRAGMA cache_size", [])).toEqual({ cache_size: -8192n });
    expect(await reads.get("PRAGMA mmap_size", [])).toEqual({ mmap_size: 3n * 1024n * 1024n });
  });

  it("never writes", async () => {
    await expect(reads.get("UPDATE issuers SET name = 'x' RETURNING id", [])).rejects.toThrow(/readonly|read-only|query_only/i);
    const issuer = await m.db.getDb().read.issuer.findUnique({ where: { id: m.issuerId } });
    expect(issuer?.name).toBe("Unit");
  });

  it("rejects reads queued or in flight when closed, and starts a new worker for the next read", async () => {
    const queued = expect(reads.get("SELECT 1 AS one", [])).rejects.toThrow(/closed/);
    await reads.close();
    await queued;
    const inFlight = expect(reads.get("SELECT 2 AS two", [])).rejects.toThrow(/closed/);
    await turn();
    await reads.close();
    await inFlight;
    expect(await reads.get("SELECT 3 AS three", [])).toEqual({ three: 3n });
  });

  it("replaces a worker that dies, rejecting only what was sent to it", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const sent = expect(reads.get("SELECT 4 AS four", [])).rejects.toThrow(/not iterable|exited/);
    await turn();
    // A malformed message kills the worker after the batch above and before any later one.
    (reads as unknown as { worker: { worker: import("node:worker_threads").Worker } }).worker.worker.postMessage(42);
    await sent.catch(() => {}); // the batch may already be answered: then it resolved
    await new Promise((r) => setTimeout(r, 200));
    expect(logged).toHaveBeenCalledWith({ err: expect.any(Error) }, "SQLite read worker failed");
    logged.mockRestore();
    expect(await reads.get("SELECT 5 AS five", [])).toEqual({ five: 5n });
  });

  it("fails reads fast while a worker cannot start, and tries again later", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const broken = new Reads(`${dir}/missing/hallmark.db`, { cacheMb: 8, mmapMb: 0 });
    await expect(broken.get("SELECT 1", [])).rejects.toThrow(/unable to open|does not exist|directory/i);
    const started = Date.now();
    await expect(broken.get("SELECT 1", [])).rejects.toThrow(/unable to open|does not exist|directory/i);
    expect(Date.now() - started).toBeLessThan(500); // no new worker: the same error at once
    expect(logged).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(broken.get("SELECT 1", [])).rejects.toThrow(/unable to open|does not exist|directory/i);
    expect(logged).toHaveBeenCalledTimes(2); // a second attempt, after the pause
    logged.mockRestore();
    await broken.close();
  });

  it("keeps a process alive while reads are out, and not once they are answered", () => {
    // A child process that reads once and ends without closing: it must print, then exit.
    const script = `
      import { WorkerReads } from ${JSON.stringify(new URL("./sqlite-reader.ts", import.meta.url).pathname)};
      const r = new WorkerReads(${JSON.stringify(`${dir}/hallmark.db`)}, { cacheMb: 8, mmapMb: 0 });
      console.log(JSON.stringify(await r.get("SELECT 6 AS six", []), (_k, v) => (typeof v === "bigint" ? Number(v) : v)));`;
    const file = path.join(dir, "read-once.mts");
    fs.writeFileSync(file, script);
    const out = execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", file], { encoding: "utf8", timeout: 20_000 });
    expect(out.trim()).toBe('{"six":6}');
  });
});
