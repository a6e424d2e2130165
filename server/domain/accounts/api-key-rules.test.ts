// API keys' rules on a SQLite file (the cases: api-key-rules.cases.ts).
import { onSqlite } from "../../test-support/test-log";
import { apiKeyRuleCases } from "./api-key-rules.cases";

onSqlite("api-key-rules", (log) => apiKeyRuleCases("SQLite", log));
