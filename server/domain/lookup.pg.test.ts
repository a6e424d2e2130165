// The lookups on PostgreSQL (a fresh database on the local server; the cases:
// lookup.cases.ts), whose query differs from SQLite's.
import { afterAll, beforeAll, describe, it } from "vitest";
import { openTestLog, useTemporaryPostgres, type TestLog } from "../test-support/test-log";
import { lookupCases } from "./lookup.cases";

const database = await useTemporaryPostgres("lookup");
let m: TestLog;

if (database) {
  beforeAll(async () => {
    m = await openTestLog(database.dir);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await database.drop();
  });
  lookupCases("PostgreSQL");
} else {
  describe.skip("lookups (PostgreSQL)", () => {
    it("needs a PostgreSQL server (HALLMARK_TEST_PG_URL or the local one)", () => {});
  });
}
