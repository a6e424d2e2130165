// What an account is entitled to: its plan, the mint quota a plan gives per UTC month, and the
// request budgets and key count a plan bounds an API key to.
// Other contexts and layers import this context through this file only.
export * from "./key-budgets";
export * from "./mint-quota";
export * from "./plans";
