// HTTP for tests that must send what fetch refuses to: any method (TRACE, PROPFIND), any Host,
// any header as given, or raw bytes on a socket.
import http from "node:http";
import net from "node:net";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One request through http.request, which sends the method and headers exactly as given. */
export function httpRequest(
  baseUrl: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; agent?: http.Agent } = {},
): Promise<RawResponse> {
  // Node's client frames a body with neither Content-Length nor chunked encoding for methods
  // that usually have none (GET, DELETE, OPTIONS, TRACE…): the server would read it as the next
  // request. A body always goes with its length.
  const headers = opts.body === undefined ? opts.headers : { ...opts.headers, "content-length": String(Buffer.byteLength(opts.body)) };
  return new Promise((resolve, reject) => {
    // The path goes as it is: a URL string would be normalised first (dot-segments resolved).
    const base = new URL(baseUrl);
    const target = { hostname: base.hostname, port: base.port, path: `${base.pathname.replace(/\/$/, "")}${path}` };
    const req = http.request({ ...target, method: opts.method ?? "GET", headers, agent: opts.agent ?? false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/**
 * Raw bytes on a new connection; the whole answer, up to the server closing it. Pieces are
 * written 50 ms apart, so the server reads each on its own.
 */
export function rawHttp(baseUrl: string, request: string | readonly string[]): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  const pieces = typeof request === "string" ? [request] : request;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      pieces.forEach((piece, i) => {
        setTimeout(() => socket.writable && socket.write(piece), i * 50);
      });
    });
    let out = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (out += d));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}
