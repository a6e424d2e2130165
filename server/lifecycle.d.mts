export function onShutdown(name: string, fn: () => Promise<void> | void): void;
export function runShutdownHooks(report: (name: string, err: unknown) => void): Promise<void>;
export function isStopping(): boolean;
export function markStopping(): void;
