// Similar-image lookup on PostgreSQL (a fresh database on the local server; the cases:
// similar-lookup.cases.ts), whose query differs from SQLite's.
import { afterAll, beforeAll, describe, it } from "vitest";
import { openTestLog, useTemporaryPostgres, type TestLog } from "../test-support/test-log";
import { similarLookupCases } from "./similar-lookup.cases";

const database = await useTemporaryPostgres("similar");
let m: TestLog;

if (database) {
  beforeAll(async () => {
    m = await openTestLog(database.dir);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await database.drop();
  });
  similarLookupCases("PostgreSQL");
} else {
  describe.skip("similar-image lookup (PostgreSQL)", () => {
    it("needs a PostgreSQL server (HALLMARK_TEST_PG_URL or the local one)", () => {});
  });
}
