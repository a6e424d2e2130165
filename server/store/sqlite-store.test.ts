// The SQLite hot-path statements against the portable Prisma implementation, on the same file
// (the cases: hot-reads.cases.ts).
import { afterAll, beforeAll, describe } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import type { HotReads } from "./types";
import { hotReadCases } from "./hot-reads.cases";

const dir = useTemporaryDataDir("store");
let m: TestLog;
let ids: string[];
let prisma: HotReads;
let sqlite: HotReads;

beforeAll(async () => {
  m = await openTestLog(dir);
  const seq = m.sequencer.getSequencer();
  const entries = Array.from({ length: 75 }, () => m.entry());
  await Promise.all(entries.map((e) => seq.append(e)));
  ids = entries.map((e) => e.row.id);
  const { prismaStore } = await import("./prisma-store");
  prisma = prismaStore(m.db.getDb()).reads;
  sqlite = m.store.getStore().reads;
}, 60_000);

afterAll(async () => {
  await m?.close();
});

describe("SQLite hot reads", () => {
  hotReadCases(() => ({ m, ids, prisma, reads: sqlite }));
});
