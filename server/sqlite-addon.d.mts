export function sqliteAddonFile(): string | null;
export function sqliteAddonProblem(file?: string | null): string | null;
export function refuseUnsafeSqliteAddon(dbKind: "sqlite" | "postgres"): void;
