// The process's shutdown, in order: scripts/serve.mjs stops taking connections and lets the
// requests in flight finish, then runs the hooks the server code registered (stop background
// timers, drain the sequencer, close the database), newest first. Plain ESM so serve.mjs and the
// bundled server code share the list (on globalThis).

/** @type {{ name: string, fn: () => Promise<void> | void }[]} */
const hooks = (globalThis.__hallmarkShutdownHooks ??= []);

/** Runs `fn` at shutdown, after every request has been answered. */
export function onShutdown(name, fn) {
  hooks.push({ name, fn });
}

/** Runs the hooks, newest first; a failing hook is reported and the rest still run. */
export async function runShutdownHooks(report) {
  for (const { name, fn } of [...hooks].reverse()) {
    try {
      await fn();
    } catch (err) {
      report(name, err);
    }
  }
  hooks.length = 0;
}

/** Whether the process is stopping (readiness answers 503 from then on). */
export const isStopping = () => globalThis.__hallmarkStopping === true;
export function markStopping() {
  globalThis.__hallmarkStopping = true;
}
