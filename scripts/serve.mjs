#!/usr/bin/env node
// @ts-check
// Serves Hallmark: Next.js's own request handler (the one `next start` runs) behind the gate
// (server/gate/gate.mjs), on one HTTP server. Migrations are the start script's business.
//   node scripts/serve.mjs [--dev] [-p PORT] [-H HOST]
// PORT and HOSTNAME come from the environment when not given.
//
// Every request gets an X-Request-Id and, when its answer ends, one JSON log line and its
// metrics (server/observability/requests.mjs). This server answers three paths itself, before
// Next.js: /healthz (the process answers), /readyz while stopping (503), and /metrics (only with
// HALLMARK_METRICS_TOKEN, as a bearer token).
//
// On SIGTERM or SIGINT: /readyz turns 503, the listener closes (no new connections), requests
// in flight finish (a keep-alive connection is closed after its current answer), then the
// server code's shutdown hooks run (background timers stop, the sequencer drains, the database
// closes: server/lifecycle.mjs) and the process exits 0. Past SHUTDOWN_BOUND_MS it exits 1.
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { readEnvOrExit } from "../server/env.mjs";
import { createGate } from "../server/gate/gate.mjs";
import { isStopping, markStopping, runShutdownHooks } from "../server/lifecycle.mjs";
import { logger } from "../server/observability/logger.mjs";
import { metrics } from "../server/observability/metrics.mjs";
import { createRouteNamer, trackRequest } from "../server/observability/requests.mjs";
import { refuseUnsafeSqliteAddon } from "../server/sqlite-addon.mjs";

const SHUTDOWN_BOUND_MS = 15_000;

const { values } = parseArgs({
  options: { dev: { type: "boolean", default: false }, port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
});
const dev = values.dev;
// Next.js's types make NODE_ENV read-only (its bundles inline it); this process sets it before Next.js loads.
/** @type {Record<string, string | undefined>} */ (process.env).NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";
if (values.port) process.env.PORT = values.port;

const startedAt = performance.now();
const env = readEnvOrExit();
refuseUnsafeSqliteAddon(env.dbKind);
const hostname = values.hostname ?? process.env.HOSTNAME;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { default: next } = await import("next");
const app = next({ dev, dir: root, hostname: hostname ?? "localhost", port: env.port });
await app.prepare();
const handle = app.getRequestHandler();
const gate = createGate({ baseUrl: env.baseUrl, trustedProxies: env.trustedProxies, dev });
const routeOf = createRouteNamer(path.join(root, process.env.HALLMARK_DIST_DIR || ".next"));

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {string} body
 * @param {http.OutgoingHttpHeaders} [headers]
 */
function plain(res, status, body, headers = {}) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(body);
}

/**
 * Whether the request carries `token`, the bearer token /metrics requires, compared in constant time.
 * @param {http.IncomingMessage} req
 * @param {string} token
 */
function metricsAuthorized(req, token) {
  const sent = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const a = crypto.createHash("sha256").update(sent).digest();
  const b = crypto.createHash("sha256").update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The paths this server answers itself; true when it answered.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {string} pathname
 */
function operatorPath(req, res, pathname) {
  if (pathname === "/healthz") {
    plain(res, 200, "ok\n");
    return true;
  }
  if (pathname === "/readyz" && isStopping()) {
    res.setHeader("connection", "close");
    plain(res, 503, "stopping\n", { "retry-after": "1" });
    return true;
  }
  if (pathname === "/metrics" && env.metricsToken) {
    if (!metricsAuthorized(req, env.metricsToken)) {
      plain(res, 401, "a bearer token is required\n", { "www-authenticate": 'Bearer realm="metrics"' });
      return true;
    }
    metrics.register.metrics().then(
      (text) => plain(res, 200, text, { "content-type": metrics.register.contentType }),
      (/** @type {unknown} */ err) => gate.fail(req, res, err),
    );
    return true;
  }
  return false;
}

const server = http.createServer((req, res) => {
  trackRequest(req, res, routeOf);
  // A connection is not reused once the process is stopping: the client opens its next one elsewhere.
  if (stopping) res.setHeader("connection", "close");
  if (gate.screen(req, res)) return;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  if ((req.method === "GET" || req.method === "HEAD") && operatorPath(req, res, q < 0 ? url : url.slice(0, q))) return;
  handle(req, res).catch((/** @type {unknown} */ err) => gate.fail(req, res, err));
});
// Lingering close, as nginx's lingering_close: an answer that closes the connection while the
// client is still sending (a 413 for an upload past the limit) would be followed by a reset, the
// kernel's answer to a close with unread data, and a client that gets the reset before it has
// read the answer loses the answer. Node closes such a connection with destroySoon(); here it
// half-closes, reads and discards what still arrives, and closes once the client does, or after
// LINGER_MS.
const LINGER_MS = 2_000;
server.on("connection", (socket) => {
  const closeNow = socket.destroySoon;
  socket.destroySoon = function lingeringClose() {
    if (this.destroyed || this.readableEnded) return closeNow.call(this);
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("end", () => this.destroy());
    this.once("close", () => clearTimeout(timer));
    this.resume();
  };
});
server.on("connect", gate.onConnect);
server.on("clientError", gate.onClientError);
// Idle keep-alive sockets stay open longer than a proxy's or client's reuse window (Node's
// default of 5 s lets a reused socket be closed under the client: "other side closed").
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  markStopping();
  const t0 = performance.now();
  logger.info({ signal }, "stopping: finishing requests in flight");
  const bound = setTimeout(() => {
    logger.error({ signal, bound_ms: SHUTDOWN_BOUND_MS }, "shutdown did not finish in time; exiting");
    process.exit(1);
  }, SHUTDOWN_BOUND_MS);
  bound.unref();
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeIdleConnections();
    // A keep-alive connection becomes idle once its answer is sent (and that answer said close).
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.once("close", () => clearInterval(sweep));
  });
  await runShutdownHooks((name, err) => logger.error({ hook: name, err }, "shutdown step failed"));
  logger.info({ signal, ms: Math.round(performance.now() - t0) }, "stopped");
  logger.flush?.();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));

server.listen(env.port, hostname, () => {
  logger.info(
    {
      mode: dev ? "development" : "production",
      address: `${hostname ?? "*"}:${env.port}`,
      base_url: env.baseUrl,
      db: env.dbKind,
      ms: Math.round(performance.now() - startedAt),
    },
    "listening",
  );
  // For the person who started it, in words and apart from the JSON log on stdout: the address
  // to open. Pages answer there only (another host name is redirected to it).
  process.stderr.write(`Hallmark is ready: open ${env.baseUrl} in a browser.\n`);
});
