// The append transaction against a real SQLite file (the cases: log-append.cases.ts).
import { afterAll, beforeAll } from "vitest";
import { openTestLog, useTemporaryDataDir, type TestLog } from "../test-support/test-log";
import { appendCases } from "./log-append.cases";

const dir = useTemporaryDataDir("append");
let m: TestLog;

beforeAll(async () => {
  m = await openTestLog(dir);
}, 60_000);

afterAll(async () => {
  await m?.close();
});

appendCases("SQLite", () => m);
