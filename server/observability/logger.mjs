// The server's one logger: pino, JSON lines on stdout (one object per line, `msg` and the
// facts as fields), at HALLMARK_LOG_LEVEL (default info); pretty-printed when NODE_ENV is
// development and pino-pretty (a development dependency) is installed. Plain ESM so that
// scripts/serve.mjs and the bundled server code share it; the instance lives on globalThis,
// so both write through the same one.
//
// What is never logged: an API key, a session or e-mail token, a password, a private key, an
// e-mail's body or recipient. Field names that could carry one are redacted as a second line of
// defence (a call site that passes a whole object by mistake).
import { createRequire } from "node:module";
import pino from "pino";

const REDACT = [
  "password",
  "token",
  "apiKey",
  "api_key",
  "secret",
  "authorization",
  "cookie",
  "*.password",
  "*.token",
  "*.apiKey",
  "*.api_key",
  "*.secret",
  "*.authorization",
  "*.cookie",
  'headers["x-api-key"]',
  "headers.authorization",
  "headers.cookie",
];

function level() {
  const l = process.env.HALLMARK_LOG_LEVEL;
  return ["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(l) ? l : "info";
}

function prettyStream() {
  // serve.mjs --dev sets NODE_ENV only after its imports (this module among them) have run.
  if (process.env.NODE_ENV !== "development" && !process.argv.includes("--dev")) return undefined;
  try {
    // A stream in this thread, not a transport: pino's transport workers do not survive bundling.
    return createRequire(import.meta.url)("pino-pretty")({
      colorize: true,
      ignore: "pid,hostname,service",
      translateTime: "SYS:HH:MM:ss.l",
    });
  } catch {
    return undefined;
  }
}

function make() {
  return pino(
    {
      level: level(),
      base: { service: "hallmark", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    // Asynchronous writes: under load, the lines that arrive while one write is in flight go out
    // together in the next (fewer system calls on the hot paths); pino flushes what is left
    // when the process exits normally. A kill -9 may lose the last lines, never data.
    prettyStream() ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** @type {import("pino").Logger} */
export const logger = (globalThis.__hallmarkLogger ??= make());
