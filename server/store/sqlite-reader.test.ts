// The read worker itself: errors come back as errors, a stopped worker rejects what was in
// flight and the next read starts a new one, and it never writes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openSqliteLog, useTemporaryDataDir, type SqliteLog } from "../test-support/sqlite-log";
import type { WorkerReads } from "./sqlite-reader";

const dir = useTemporaryDataDir("reader");
let m: SqliteLog;
let reads: WorkerReads;

beforeAll(async () => {
  m = await openSqliteLog(dir);
  const { WorkerReads } = await import("./sqlite-reader");
  reads = new WorkerReads(`${dir}/hallmark.db`);
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
    await expect(reads.get("SELECT * FROM no_such_table", [])).rejects.toMatchObject({ message: expect.stringMatching(/no such table/), code: "SQLITE_ERROR" });
    await expect(reads.get("SELECT ?", [])).rejects.toThrow(/parameter/i);
    expect(await reads.get("SELECT 1 AS one", [])).toEqual({ one: 1n });
  });

  it("never writes", async () => {
    await expect(reads.get("UPDATE issuers SET name = 'x' RETURNING id", [])).rejects.toThrow(/readonly|read-only|query_only/i);
    const { issuer } = await import("../db").then(async (db) => ({ issuer: await db.getDb().read.issuer.findUnique({ where: { id: m.issuerId } }) }));
    expect(issuer?.name).toBe("Unit");
  });

  it("rejects what is in flight when the worker stops, and starts a new one for the next read", async () => {
    const inFlight = expect(reads.get("SELECT 1 AS one", [])).rejects.toThrow(/worker/);
    await reads.close(); // terminates the worker before the batch is answered
    await inFlight;
    expect(await reads.get("SELECT 2 AS two", [])).toEqual({ two: 2n });
    // A worker that dies on its own is replaced too: a malformed message kills this one before
    // it reaches the batch posted after it.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    (reads as unknown as { worker: import("node:worker_threads").Worker }).worker.postMessage(42);
    const crashed = expect(reads.get("SELECT 3 AS three", [])).rejects.toThrow(/not iterable|exited/);
    await crashed;
    expect(logged).toHaveBeenCalledWith("[hallmark] SQLite read worker failed:", expect.any(Error));
    logged.mockRestore();
    expect(await reads.get("SELECT 4 AS four", [])).toEqual({ four: 4n });
  });
});
