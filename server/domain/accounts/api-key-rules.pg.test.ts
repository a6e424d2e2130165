// API keys' rules on PostgreSQL (a fresh database on the local server; the cases:
// api-key-rules.cases.ts), where concurrent creations queue on the tenant's row lock.
import { onPostgres } from "../../test-support/test-log";
import { apiKeyRuleCases } from "./api-key-rules.cases";

await onPostgres("api-key-rules", "API key rules", (log) => apiKeyRuleCases("PostgreSQL", log));
