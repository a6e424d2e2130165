// The lookups on a SQLite file (the cases: lookup.cases.ts).
import { onSqlite } from "../../test-support/test-log";
import { lookupCases } from "./lookup.cases";

onSqlite("lookup", () => lookupCases("SQLite"));
