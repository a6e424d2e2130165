// The lookups on a SQLite file (the cases: lookup.cases.ts).
import { afterAll, beforeAll } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import { lookupCases } from "./lookup.cases";

const dir = useTemporaryDataDir("lookup");
let m: TestLog;
beforeAll(async () => {
  m = await openTestLog(dir);
}, 60_000);
afterAll(async () => {
  await m?.close();
});
lookupCases("SQLite");
