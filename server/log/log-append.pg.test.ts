// The append transaction on PostgreSQL (a fresh database on the local server; the cases:
// log-append.cases.ts), through the store that serves it (server/store/pg-store.ts).
import { onPostgres } from "../test-support/test-log";
import { appendCases } from "./log-append.cases";

await onPostgres("append", "log append transaction", (log) => appendCases("PostgreSQL", log));
