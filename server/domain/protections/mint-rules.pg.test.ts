// A consumer mint's rules on PostgreSQL (a fresh database on the local server; the cases:
// mint-rules.cases.ts), where the quota and the keys are held across instances by the log's lock.
import { onPostgres } from "../../test-support/test-log";
import { mintRuleCases } from "./mint-rules.cases";

await onPostgres("mint-rules", "mint rules", () => mintRuleCases("PostgreSQL"));
