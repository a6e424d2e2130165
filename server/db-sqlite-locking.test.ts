// Write transactions on SQLite when another process writes the same file (`npm run admin` beside
// a running server): a transaction takes the write lock when it begins, so a read inside it
// can never be outdated by another writer's commit before its own write; and a lock held too
// long by someone else is a 503 to retry, not a 500.
import path from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "./test-support/test-log";

const dir = useTemporaryDataDir("locking");
let m: TestLog;
let other: Sqlite.Database; // stands for another process: its own connection to the file

beforeAll(async () => {
  m = await openTestLog(dir);
  other = new Sqlite(path.join(dir, "hallmark.db"));
  other.pragma("busy_timeout = 0");
}, 60_000);

afterAll(async () => {
  other?.close();
  await m?.close();
});

describe("SQLite write transactions beside another writer", () => {
  it("hold the write lock from their start: another connection cannot commit between a read and the write after it", async () => {
    const db = m.db.getDb();
    let otherError: unknown = null;
    const before = await db.write(async (tx) => {
      const issuer = await tx.issuer.findUniqueOrThrow({ where: { id: m.issuerId } }); // the snapshot
      try {
        other.prepare("UPDATE issuers SET name = 'Other process' WHERE id = ?").run(m.issuerId);
      } catch (err) {
        otherError = err;
      }
      await tx.issuer.update({ where: { id: m.issuerId }, data: { name: `${issuer.name} (renamed)` } });
      return issuer.name;
    });
    expect((otherError as { code?: string } | null)?.code).toBe("SQLITE_BUSY");
    expect((await db.read.issuer.findUniqueOrThrow({ where: { id: m.issuerId } })).name).toBe(`${before} (renamed)`);
    // Once the transaction has ended, the other connection writes as usual.
    other.prepare("UPDATE issuers SET name = ? WHERE id = ?").run(before, m.issuerId);
  });

  it("answer 503 with Retry-After, not 500, when another connection holds the lock past the busy timeout", async () => {
    const db = m.db.getDb();
    const raw = db.sqlite!.writer.connection!;
    const { errorToResponse } = await import("./http/errors");
    other.exec("BEGIN IMMEDIATE");
    raw.pragma("busy_timeout = 50");
    let error: unknown = null;
    try {
      await db.write((tx) => tx.issuer.update({ where: { id: m.issuerId }, data: { name: "Blocked" } }));
    } catch (err) {
      error = err;
    } finally {
      raw.pragma("busy_timeout = 5000");
      other.exec("ROLLBACK");
    }
    expect(error).not.toBeNull();
    const res = errorToResponse(error, "body", new Request("http://x/", { headers: { "x-request-id": "test-request" } }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ code: "service_unavailable", request_id: "test-request" });
    // Nothing was written, and the next write goes through.
    expect((await db.read.issuer.findUniqueOrThrow({ where: { id: m.issuerId } })).name).not.toBe("Blocked");
    await db.write((tx) => tx.issuer.update({ where: { id: m.issuerId }, data: { name: "Unblocked" } }));
  });

  it("count as busy exactly the codes of a lock or transaction timeout, not a caller's error", () => {
    const busy = [
      "P1008",
      "P2028",
      "P2034",
      "SQLITE_BUSY",
      "SQLITE_BUSY_SNAPSHOT",
      "40001",
      "40P01",
      "40000",
      "55P03",
      "57014",
      "57P01",
      "08006",
      "08000",
      "53300",
    ];
    const notBusy = ["P2002", "P2025", "SQLITE_CONSTRAINT_UNIQUE", "23505", "22P02", undefined, 42];
    expect(busy.filter((code) => !m.db.isBusy({ code }))).toEqual([]);
    expect(notBusy.filter((code) => m.db.isBusy({ code }))).toEqual([]);
    expect(m.db.isBusy(null)).toBe(false);
  });
});
