// Similar-image lookup on a SQLite file (the cases: similar-lookup.cases.ts).
import { afterAll, beforeAll } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import { similarLookupCases } from "./similar-lookup.cases";

const dir = useTemporaryDataDir("similar");
let m: TestLog;
beforeAll(async () => {
  m = await openTestLog(dir);
}, 60_000);
afterAll(async () => {
  await m?.close();
});
similarLookupCases("SQLite");
