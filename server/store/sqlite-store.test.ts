// The SQLite hot-path statements against the portable Prisma implementation, on the same file
// (the cases: hot-reads.cases.ts).
import { afterAll, beforeAll, describe } from "vitest";
import { openTestLog, useTemporaryDataDir } from "../test-support/test-log";
import { hotReadCases, setUpHotReads, type HotReadsUnderTest } from "./hot-reads.cases";

const dir = useTemporaryDataDir("store");
let t: HotReadsUnderTest;

beforeAll(async () => {
  t = await setUpHotReads(await openTestLog(dir));
}, 60_000);

afterAll(async () => {
  await t?.m.close();
});

describe("SQLite hot reads", () => {
  hotReadCases(() => t);
});
