// The PostgreSQL store on a fresh database: its reads against the portable Prisma
// implementation (the cases: hot-reads.cases.ts), under a time zone far from UTC; rows it
// writes read back through Prisma as they were written; and its failure paths.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestLog, useTemporaryPostgres, type TestLog } from "../test-support/test-log";
import type { HotReads } from "./types";
import { hotReadCases, setUpHotReads, type HotReadsUnderTest } from "./hot-reads.cases";

const database = await useTemporaryPostgres("pg-store");
let m: TestLog;
let t: HotReadsUnderTest;
let reads: HotReads;

// Without a server, one test says why the file ran nothing (under HALLMARK_TEST_STRICT=1 the
// missing server fails the file instead, in useTemporaryPostgres).
if (!database)
  describe("PostgreSQL hot reads and writes", () => {
    it("needs a PostgreSQL server", (ctx) => ctx.skip("no PostgreSQL server answers (HALLMARK_TEST_PG_URL or the local one)"));
  });

if (database)
  describe("PostgreSQL hot reads and writes", () => {
    beforeAll(async () => {
      // A time zone far from UTC: timestamps must not move with the process's zone.
      process.env.TZ = "Pacific/Kiritimati";
      m = await openTestLog(database!.dir);
      t = await setUpHotReads(m);
      reads = t.reads;
      expect(m.db.getDb().kind).toBe("postgres");
    }, 60_000);

    afterAll(async () => {
      await m?.close();
      await database?.drop();
    });

    hotReadCases(() => t);

    it("writes what it was given: an appended entry's row and its own rows read back through Prisma unchanged", async () => {
      const e = m.entry();
      e.row.createdAt = new Date(Date.UTC(2026, 10, 23, 23, 59, 59, 987));
      // A seal column as the append writes it (its text is not read by the store).
      e.row.seal = JSON.stringify({ issuer_id: crypto.randomUUID(), kid: "k\u00e9y", salt: "AAAA", signature: "c2ln" });
      const record = {
        tenantId: m.tenantId,
        key: "k\u00e9y \u{1F600}",
        requestHash: "h",
        status: 201,
        response: '{"a":"\\u0000"}',
        createdAt: e.row.createdAt,
      };
      e.effects = { write: (w) => w.putIdempotencyRecord(record) };
      const index = await m.sequencer.getSequencer().append(e);
      const db = m.db.getDb().read;
      expect(await db.attestation.findUnique({ where: { id: e.row.id } })).toEqual({ ...e.row, status: "VALID", logIndex: BigInt(index) });
      expect(await db.idempotencyRecord.findUnique({ where: { tenantId_key: { tenantId: m.tenantId, key: record.key } } })).toEqual(record);
      const cp = (await reads.latestCheckpoint())!;
      expect(Number(cp.treeSize)).toBe(index + 1);
      expect(await db.checkpoint.findUnique({ where: { treeSize: cp.treeSize } })).toEqual(cp);
    });

    it("writes a protection's text exactly, nulls as nulls, a file size beyond 2^32 exactly", async () => {
      const { createConsumer } = await import("../domain/accounts");
      const { userId } = await createConsumer({
        email: `${crypto.randomUUID()}@example.org`,
        password: "a long password",
        name: "U",
        plan: "free",
        verified: true,
      });
      const e = m.entry();
      const odd = 'quote " backslash \\ braces {} comma , NULL \u{1F600} \u2028 \t';
      const rows = [
        {
          id: crypto.randomUUID(),
          title: odd,
          description: "NULL",
          contentType: 'text/plain; q="1"',
          fileName: "{a,b}",
          fileSize: 2n ** 40n,
          aiMetadata: '{"k":"\\u0000"}',
        },
        { id: crypto.randomUUID(), title: null, description: null, contentType: null, fileName: null, fileSize: null, aiMetadata: null },
      ].map((r, i) => ({
        ...r,
        tenantId: m.tenantId,
        userId,
        attestationId: i === 0 ? e.row.id : crypto.randomUUID(),
        contentHash: "ab".repeat(32),
        category: "media",
        visibility: "public",
        createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      }));
      e.effects = {
        write: async (w) => {
          for (const r of rows) await w.insertProtection(r);
        },
      };
      await m.sequencer.getSequencer().append(e);
      for (const r of rows)
        expect(await m.db.getDb().read.protection.findUnique({ where: { id: r.id } })).toEqual({ ...r, verificationCount: 0 });
    });

    it("fails the whole batch when a statement failed inside it, even if an effect caught the error", async () => {
      const before = await reads.latestCheckpoint();
      const ok = m.entry();
      const swallowing = m.entry();
      swallowing.effects = {
        admit: async (w) => {
          // U+0000 cannot be sent to PostgreSQL: the statement fails and the transaction is aborted.
          await w.idempotencyRecord(m.tenantId, "nul \u0000").catch(() => null);
        },
      };
      const seq = m.sequencer.getSequencer();
      const results = await Promise.allSettled([seq.append(ok), seq.append(swallowing)]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect(await reads.latestCheckpoint()).toEqual(before);
      expect(await reads.attestation(ok.row.id, m.tenantId)).toBeNull();
      expect(typeof (await seq.append(m.entry()))).toBe("number");
    });

    it("answers a busy database when the log stays locked past the lock timeout, and appends once it is free", async () => {
      const { APPEND_TIMEOUTS } = await import("./pg-store");
      const { isBusy } = m.db;
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      const saved = APPEND_TIMEOUTS.lockMs;
      APPEND_TIMEOUTS.lockMs = 300;
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM log WHERE id = 1 FOR UPDATE");
        const err = await m.sequencer
          .getSequencer()
          .append(m.entry())
          .catch((e: unknown) => e);
        expect((err as { code?: string }).code).toBe("55P03");
        expect(isBusy(err)).toBe(true);
        await holder.query("ROLLBACK");
        expect(typeof (await m.sequencer.getSequencer().append(m.entry()))).toBe("number");
      } finally {
        APPEND_TIMEOUTS.lockMs = saved;
        await holder.end();
      }
    });

    it("survives its connection being terminated in the middle of an append: the append fails, the process lives on", async () => {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        const e = m.entry();
        e.effects = {
          admit: async () => {
            // Inside the transaction, the log locked: end this backend from outside.
            await admin.query(
              "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE relation = 'log'::regclass AND mode = 'RowExclusiveLock' AND pid <> pg_backend_pid()",
            );
          },
        };
        const err = await m.sequencer
          .getSequencer()
          .append(e)
          .catch((x: unknown) => x);
        expect(err).toBeInstanceOf(Error);
        expect(await reads.attestation(e.row.id, m.tenantId)).toBeNull();
        // The pool dropped the dead connection; the next append goes through.
        expect(typeof (await m.sequencer.getSequencer().append(m.entry()))).toBe("number");
      } finally {
        await admin.end();
      }
    });
  });
