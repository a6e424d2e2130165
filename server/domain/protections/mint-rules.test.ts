// A consumer mint's rules on a SQLite file (the cases: mint-rules.cases.ts).
import { onSqlite } from "../../test-support/test-log";
import { mintRuleCases } from "./mint-rules.cases";

onSqlite("mint-rules", () => mintRuleCases("SQLite"));
