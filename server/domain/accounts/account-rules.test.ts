// Who owns an account, on a SQLite file (the cases: account-rules.cases.ts).
import { onSqlite } from "../../test-support/test-log";
import { accountRuleCases } from "./account-rules.cases";

onSqlite("account-rules", () => accountRuleCases("SQLite"));
