// Who owns an account, on PostgreSQL (a fresh database on the local server; the cases:
// account-rules.cases.ts).
import { onPostgres } from "../../test-support/test-log";
import { accountRuleCases } from "./account-rules.cases";

await onPostgres("account-rules", "account rules", () => accountRuleCases("PostgreSQL"));
