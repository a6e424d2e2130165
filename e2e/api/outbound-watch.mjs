// @ts-check
// Loaded into a server process (`node --import`) by tests that prove the server reaches no other
// host: it reports, as a JSON log line on stderr, every request Node's fetch starts and every TCP
// connection a socket looks up or opens to a host that is not this machine. It watches through
// Node's diagnostics channels and changes nothing the server does.
import dc from "node:diagnostics_channel";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;
/**
 * @param {string} what
 * @param {string} target
 */
const report = (what, target) => process.stderr.write(`${JSON.stringify({ level: "warn", msg: "outbound connection", what, target })}\n`);

// The messages' shapes are undici's and Node's (their diagnostics_channel documentation).
dc.subscribe("undici:request:create", (message) => {
  const { request } = /** @type {{ request: { origin?: unknown, path?: string } }} */ (message);
  const origin = String(request.origin ?? "");
  let host = "";
  try {
    host = new URL(origin).hostname;
  } catch {}
  if (!LOOPBACK.test(host)) report("fetch", `${origin}${request.path ?? ""}`);
});

dc.subscribe("net.client.socket", (message) => {
  const { socket } = /** @type {{ socket: import("node:net").Socket }} */ (message);
  socket.once("lookup", (_err, _address, _family, host) => {
    if (host && !LOOPBACK.test(host)) report("lookup", host);
  });
  socket.once("connect", () => {
    if (socket.remoteAddress && !LOOPBACK.test(socket.remoteAddress)) report("connect", socket.remoteAddress);
  });
});

process.stderr.write(`${JSON.stringify({ level: "info", msg: "outbound watch on" })}\n`);
