// The write worker itself (sqlite-writer.ts, sqlite.worker.mjs): a transaction commits every
// statement it was given or none, including writes sent without waiting for their answer; a
// worker that dies mid-transaction leaves nothing of it, even though its later writes reach the
// next worker; the commit is durable settings-wise (synchronous = FULL); and transactions take
// turns with db.write's.
import path from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import type { WorkerWrites } from "./sqlite-writer";
import { logger } from "../observability/logger.mjs";

const dir = useTemporaryDataDir("writer");
let m: TestLog;
let writes: WorkerWrites;
let check: Sqlite.Database; // reads what was committed, on its own connection

const rows = () => (check.prepare("SELECT x FROM scratch ORDER BY x").all() as { x: number }[]).map((r) => r.x);
const workerOf = (w: WorkerWrites) => (w as unknown as { worker: { worker: import("node:worker_threads").Worker | null } }).worker.worker;

beforeAll(async () => {
  m = await openTestLog(dir);
  const { WorkerWrites: Writes } = await import("./sqlite-writer");
  const db = m.db.getDb();
  writes = new Writes(`${dir}/hallmark.db`, { cacheMb: 8, mmapMb: 0 }, db.sqlite!.exclusive);
  await db.write((tx) => tx.$executeRawUnsafe("CREATE TABLE scratch (x INTEGER PRIMARY KEY)"));
  check = new Sqlite(path.join(dir, "hallmark.db"), { readonly: true });
}, 60_000);

afterAll(async () => {
  check?.close();
  await writes?.close();
  await m?.close();
});

describe("SQLite write worker", () => {
  it("commits the writes sent without waiting with the reads between them, in order, and answers reads inside the transaction", async () => {
    const seen = await writes.transaction(async (tx) => {
      tx.run("INSERT INTO scratch (x) VALUES (?)", [1]);
      tx.each("INSERT INTO scratch (x) VALUES (?)", [[2], [3]]);
      const inside = (await tx.get("SELECT count(*) AS n FROM scratch", [])) as { n: bigint };
      expect(await tx.changes("UPDATE scratch SET x = x + 10 WHERE x = ?", [3])).toBe(1);
      expect(rows()).toEqual([]); // nothing is visible before the commit
      return inside.n;
    });
    expect(seen).toBe(3n);
    expect(rows()).toEqual([1, 2, 13]);
  });

  it("commits nothing when a write sent without waiting fails, and says why", async () => {
    const failing = writes.transaction(async (tx) => {
      tx.run("INSERT INTO scratch (x) VALUES (?)", [20]);
      tx.run("INSERT INTO scratch (x) VALUES (?)", [1]); // already there
      tx.run("INSERT INTO scratch (x) VALUES (?)", [21]);
      return "committed";
    });
    await expect(failing).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
    expect(rows()).toEqual([1, 2, 13]);
  });

  it("refuses a failed transaction's later reads too, and rolls back when the function throws", async () => {
    await expect(
      writes.transaction(async (tx) => {
        tx.run("INSERT INTO nowhere (x) VALUES (1)", []);
        return tx.get("SELECT 1 AS one", []);
      }),
    ).rejects.toThrow(/no such table: nowhere/);
    await expect(
      writes.transaction(async (tx) => {
        tx.run("INSERT INTO scratch (x) VALUES (?)", [30]);
        await tx.get("SELECT 1", []);
        throw new Error("changed its mind");
      }),
    ).rejects.toThrow("changed its mind");
    expect(rows()).toEqual([1, 2, 13]);
    // The next transaction starts clean.
    await writes.transaction(async (tx) => tx.run("INSERT INTO scratch (x) VALUES (?)", [4]));
    expect(rows()).toEqual([1, 2, 4, 13]);
  });

  it("commits nothing after a failed answer the function went on from, nor after a message that could not be sent", async () => {
    await expect(
      writes.transaction(async (tx) => {
        tx.run("INSERT INTO scratch (x) VALUES (?)", [50]);
        await tx.get("SELECT * FROM nowhere", []).catch(() => null); // an admit that refuses its unit on any error
        tx.run("INSERT INTO scratch (x) VALUES (?)", [51]);
      }),
    ).rejects.toThrow(/no such table: nowhere/);
    await expect(
      writes.transaction(async (tx) => {
        await tx.get("SELECT 1", []); // the transaction is open on the worker
        tx.run("INSERT INTO scratch (x) VALUES (?)", [52]);
        tx.run("INSERT INTO scratch (x) VALUES (?)", [() => 53]); // cannot be copied to the worker: the message is not sent
        await tx.get("SELECT 1", []).catch(() => null);
        tx.run("INSERT INTO scratch (x) VALUES (?)", [54]);
      }),
    ).rejects.toThrow(/could not be cloned|DataCloneError/i);
    expect(rows()).toEqual([1, 2, 4, 13]);
  });

  it("refuses a write issued after its transaction ended", async () => {
    let late: import("./sqlite-writer").WriteTx | undefined;
    await writes.transaction(async (tx) => {
      late = tx;
    });
    expect(() => late!.run("INSERT INTO scratch (x) VALUES (?)", [55])).toThrow(/has ended/);
    expect(rows()).toEqual([1, 2, 4, 13]);
  });

  it("leaves nothing of a transaction whose worker died, though its later writes reach the next worker", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const dying = writes.transaction(async (tx) => {
      tx.run("INSERT INTO scratch (x) VALUES (?)", [40]);
      await tx.get("SELECT 1", []);
      // A malformed message kills the worker; the writes below and the commit go to a new one.
      workerOf(writes)!.postMessage(42);
      await new Promise((r) => setTimeout(r, 300));
      tx.run("INSERT INTO scratch (x) VALUES (?)", [41]);
      return "committed";
    });
    await expect(dying).rejects.toThrow(/no transaction is open|exited|not iterable/);
    expect(logged).toHaveBeenCalledWith({ err: expect.any(Error) }, "SQLite write worker failed");
    logged.mockRestore();
    expect(rows()).toEqual([1, 2, 4, 13]);
    await writes.transaction(async (tx) => tx.run("INSERT INTO scratch (x) VALUES (?)", [5]));
    expect(rows()).toEqual([1, 2, 4, 5, 13]);
  });

  it("commits with synchronous = FULL in WAL mode, and enforces foreign keys", async () => {
    const settings = await writes.transaction(async (tx) => [
      await tx.get("PRAGMA synchronous", []),
      await tx.get("PRAGMA journal_mode", []),
      await tx.get("PRAGMA foreign_keys", []),
    ]);
    expect(settings).toEqual([{ synchronous: 2n }, { journal_mode: "wal" }, { foreign_keys: 1n }]);
  });

  it("waits for another process's write lock, then commits", async () => {
    const other = new Sqlite(path.join(dir, "hallmark.db"));
    other.exec("BEGIN IMMEDIATE");
    const started = Date.now();
    const waiting = writes.transaction(async (tx) => tx.run("INSERT INTO scratch (x) VALUES (?)", [6]));
    setTimeout(() => other.exec("ROLLBACK"), 300);
    await waiting;
    other.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(rows()).toContain(6);
  });

  it("takes turns with db.write: neither waits on SQLite's lock for the other, whichever comes first", async () => {
    const db = m.db.getDb();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // A db.write that holds its transaction open across an await, as Prisma's interactive ones do.
    const first = db.write(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO scratch (x) VALUES (7)");
      await held;
      order.push("write committed");
    });
    const second = writes.transaction(async (tx) => {
      order.push("append began");
      tx.run("INSERT INTO scratch (x) VALUES (?)", [8]);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["write committed", "append began"]);
    // And the other way round.
    const third = writes.transaction(async (tx) => {
      tx.run("INSERT INTO scratch (x) VALUES (?)", [9]);
      await tx.get("SELECT 1", []);
      await new Promise((r) => setTimeout(r, 200));
      order.push("append done");
    });
    const fourth = db.write(async (tx) => {
      order.push("write began");
      await tx.$executeRawUnsafe("INSERT INTO scratch (x) VALUES (10)");
    });
    await Promise.all([third, fourth]);
    expect(order.slice(2)).toEqual(["append done", "write began"]);
    expect(rows()).toEqual(expect.arrayContaining([7, 8, 9, 10]));
  });
});
