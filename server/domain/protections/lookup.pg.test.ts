// The lookups on PostgreSQL (a fresh database on the local server; the cases: lookup.cases.ts),
// whose similar-image query differs from SQLite's.
import { onPostgres } from "../../test-support/test-log";
import { lookupCases } from "./lookup.cases";

await onPostgres("lookup", "lookups", () => lookupCases("PostgreSQL"));
