// Who may act: consumer accounts and organisations, sign-up, login, sessions, e-mailed links
// and their mail budgets, password changes and resets, API keys and their scopes.
// Other contexts and layers import this context through this file only.
export * from "./account-settings";
export * from "./api-key-notices";
export * from "./api-keys";
export * from "./consumers";
export * from "./email-change";
export * from "./login";
export * from "./organizations";
export * from "./password-reset";
export * from "./principal";
export * from "./registration";
export * from "@/lib/scopes";
