// @ts-check
// The process's shutdown, in order: scripts/serve.mjs stops taking connections and lets the
// requests in flight finish, then runs the hooks the server code registered (stop background
// timers, drain the sequencer, close the database), newest first. Plain ESM so serve.mjs and the
// bundled server code share the list (on globalThis).

/** @typedef {{ name: string, fn: () => Promise<void> | void }} Hook */
/** The process's slots this module keeps its state in (one for every copy of the module). */
const shared = /** @type {{ __hallmarkShutdownHooks?: Hook[], __hallmarkStopping?: boolean }} */ (globalThis);
const hooks = (shared.__hallmarkShutdownHooks ??= []);

/**
 * Runs `fn` at shutdown, after every request has been answered.
 * @param {string} name
 * @param {Hook["fn"]} fn
 */
export function onShutdown(name, fn) {
  hooks.push({ name, fn });
}

/**
 * Runs the hooks, newest first; a failing hook is reported and the rest still run.
 * @param {(name: string, err: unknown) => void} report
 */
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
export const isStopping = () => shared.__hallmarkStopping === true;
export function markStopping() {
  shared.__hallmarkStopping = true;
}
