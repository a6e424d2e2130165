// The append transaction against a real SQLite file (the cases: log-append.cases.ts).
import { onSqlite } from "../test-support/test-log";
import { appendCases } from "./log-append.cases";

onSqlite("append", (log) => appendCases("SQLite", log));
