// @ts-check
// The server's one logger: pino, JSON lines on stdout (one object per line, `msg` and the
// facts as fields), at HALLMARK_LOG_LEVEL (default info); pretty-printed when NODE_ENV is
// development and pino-pretty (a development dependency) is installed. Plain ESM so that
// scripts/serve.mjs and the bundled server code share it; the instance lives on globalThis,
// so both write through the same one.
//
// What is never logged: an API key, a session or e-mail token, a password, a private key, an
// e-mail's body or recipient, a request body or query string. Call sites log named facts, never
// a request or a headers object (e2e/api/operations.test.ts looks for secrets in the output).
import { createRequire } from "node:module";
import pino from "pino";

function level() {
  const l = process.env.HALLMARK_LOG_LEVEL ?? "";
  return ["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(l) ? l : "info";
}

function prettyStream() {
  // serve.mjs --dev sets NODE_ENV only after its imports (this module among them) have run.
  if (process.env.NODE_ENV !== "development" && !process.argv.includes("--dev")) return undefined;
  try {
    // A stream in this thread, not a transport: pino's transport workers do not survive bundling.
    const pretty = /** @type {typeof import("pino-pretty")} */ (createRequire(import.meta.url)("pino-pretty"));
    return pretty({
      colorize: true,
      ignore: "pid,hostname,service",
      translateTime: "SYS:HH:MM:ss.l",
    });
  } catch {
    return undefined;
  }
}

/**
 * stdout, written in blocks of at least 4 KiB (one system call for many lines under load) and
 * at least every FLUSH_MS; pino flushes what is left when the process exits normally. A kill -9
 * may lose the last lines (never data).
 */
const FLUSH_MS = 1000;
function buffered() {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      dest.flush();
    } catch {
      // nothing buffered, or a write already under way: the next tick takes it
    }
  }, FLUSH_MS).unref();
  return dest;
}

function make() {
  return pino(
    {
      level: level(),
      base: { service: "hallmark", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    prettyStream() ?? buffered(),
  );
}

/** The process's slot for the logger (one for every copy of this module). */
const shared = /** @type {{ __hallmarkLogger?: import("pino").Logger }} */ (globalThis);
export const logger = (shared.__hallmarkLogger ??= make());
