// The append transaction on PostgreSQL (a fresh database on the local server; the cases:
// log-append.cases.ts), through the store that serves it (server/store/pg-store.ts).
import { afterAll, beforeAll, describe, it } from "vitest";
import { openTestLog, useTemporaryPostgres, type TestLog } from "../test-support/test-log";
import { appendCases } from "./log-append.cases";

const database = await useTemporaryPostgres("append");
let m: TestLog;

if (database) {
  beforeAll(async () => {
    m = await openTestLog(database.dir);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await database.drop();
  });
  appendCases("PostgreSQL", () => m);
} else {
  describe.skip("log append transaction (PostgreSQL)", () => {
    it("needs a PostgreSQL server (HALLMARK_TEST_PG_URL or the local one)", () => {});
  });
}
