#!/usr/bin/env node
// Serves Hallmark: Next.js's own request handler (the one `next start` runs) behind the gate
// (server/gate/gate.mjs), on one HTTP server. Migrations are the start script's business.
//   node scripts/serve.mjs [--dev] [-p PORT] [-H HOST]
// PORT and HOSTNAME come from the environment when not given. On SIGTERM or SIGINT the server
// stops accepting connections, lets requests in flight finish (at most 10 s), then exits 0.
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { readEnvOrExit } from "../server/env.mjs";
import { createGate } from "../server/gate/gate.mjs";

const { values } = parseArgs({
  options: { dev: { type: "boolean", default: false }, port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
});
const dev = values.dev;
process.env.NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";
if (values.port) process.env.PORT = values.port;

const env = readEnvOrExit();
const hostname = values.hostname ?? process.env.HOSTNAME;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { default: next } = await import("next");
const app = next({ dev, dir: root, hostname: hostname ?? "localhost", port: env.port });
await app.prepare();
const handle = app.getRequestHandler();
const gate = createGate({ baseUrl: env.baseUrl, trustedProxies: env.trustedProxies, dev });

const server = http.createServer((req, res) => {
  if (gate.screen(req, res)) return;
  handle(req, res).catch((err) => gate.fail(req, res, err));
});
server.on("connect", gate.onConnect);
server.on("clientError", gate.onClientError);
// Idle keep-alive sockets stay open longer than a proxy's or client's reuse window (Node's
// default of 5 s lets a reused socket be closed under the client: "other side closed").
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`[hallmark] ${signal}: finishing requests in flight`);
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 10_000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

server.listen(env.port, hostname, () => {
  console.log(
    `[hallmark] ${dev ? "development" : "production"} server listening on ${hostname ?? "*"}:${env.port}, serving ${env.baseUrl}`,
  );
});
