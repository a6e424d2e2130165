// @ts-check
// The gate: what every HTTP request meets before Next.js. It answers, as problem+json, what
// Next.js would otherwise turn into a 500 or a dropped connection (methods the Fetch API cannot
// represent, such as TRACE; CONNECT; malformed request lines; paths with invalid
// percent-encoding), refuses cross-site requests that ride on cookies, sends a page asked for
// on another host to HALLMARK_BASE_URL (base-host.mjs), pins the request's host to the base
// URL's, decides the client address, and sets the security headers.
// It reads headers only, never a body, so it costs the hot paths a few microseconds.
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { jsonDepthExcess } from "../json-depth.mjs";
import { baseHostRedirect } from "./base-host.mjs";
import { resolveClientAddress } from "./client-address.mjs";
import { PUBLIC_PREFLIGHT_HEADERS, PUBLIC_READ_HEADERS, isPublicRead } from "./public-reads.mjs";
import { crossOriginRefusal } from "./same-origin.mjs";
import { kindOfPath, securityHeaders } from "./security-headers.mjs";
import { logger } from "../observability/logger.mjs";
import { metrics } from "../observability/metrics.mjs";

/** @import { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http" */
/** @import { Duplex } from "node:stream" */

/** The methods Hallmark serves; anything else is 405 before it reaches Next.js. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOWED = new Set(ALLOWED_METHODS);
/** Pages are read, never posted to: Hallmark has no Server Actions, so no page takes a body. */
const PAGE_METHODS = ["GET", "HEAD", "OPTIONS"];

// Next.js's own check of the Next-Router-State-Tree header (sent with client-side navigations):
// a header it cannot parse makes it throw mid-render, a 500. Pinned with Next.js's version. The
// header is JSON (percent-encoded) that Next.js validates and walks recursively: it is held to
// the nesting bound of every JSON a client sends first (a real one nests two levels per route
// segment).
const { parseAndValidateFlightRouterState } =
  /** @type {typeof import("next/dist/server/app-render/parse-and-validate-flight-router-state.js")} */ (
    createRequire(import.meta.url)("next/dist/server/app-render/parse-and-validate-flight-router-state.js")
  );
/** @param {string | string[]} value */
const routerStateIsValid = (value) => {
  try {
    if (typeof value === "string" && jsonDepthExcess(decodeURIComponent(value))) return false;
    parseAndValidateFlightRouterState(value);
    return true;
  } catch {
    return false;
  }
};

/** The problems the gate answers: codes, statuses and titles from the service's one table. */
const GATE_PROBLEMS = /** @type {typeof import("../../lib/errors.json")} */ (createRequire(import.meta.url)("../../lib/errors.json"));
/** @typedef {keyof typeof GATE_PROBLEMS} ProblemCode */

/**
 * A problem body, as server/http/problem.ts writes them (with the request's id), counted by code.
 * @param {ProblemCode} code
 * @param {string} detail
 * @param {string | string[]} requestId
 */
function problemBody(code, detail, requestId) {
  const { status, title } = GATE_PROBLEMS[code];
  metrics.problems.inc({ code });
  return JSON.stringify({ type: `urn:hallmark:problem:${code}`, title, status, detail, code, request_id: requestId });
}

/**
 * True when every percent-escape in the path decodes to UTF-8 (what Next.js's routing assumes).
 * @param {string} path
 */
function decodes(path) {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when a segment of the path is "." or "..", percent-encoded or not (RFC 3986 dot-segments).
 * Browsers remove them before sending; Next.js resolves some and refuses others with an empty
 * 400 depending on the method, so they are refused here, alike for every method.
 * @param {string} path
 */
function hasDotSegment(path) {
  if (!path.includes(".") && !/%2e/i.test(path)) return false;
  return path.split("/").some((segment) => {
    const s = segment.replace(/%2e/gi, ".");
    return s === "." || s === "..";
  });
}

/**
 * @param {ServerResponse} res
 * @param {Readonly<Record<string, string>>} headers
 */
function setAll(res, headers) {
  for (const name in headers) res.setHeader(name, /** @type {string} */ (headers[name]));
}

/**
 * @param {{ baseUrl: string, trustedProxies?: number, dev?: boolean }} options
 */
export function createGate({ baseUrl, trustedProxies = 0, dev = false }) {
  const base = new URL(baseUrl);
  const protocol = base.protocol.slice(0, -1);
  const sets = securityHeaders({ https: base.protocol === "https:", dev });

  /**
   * A problem answer written to a socket that never became a request (CONNECT, a parse error).
   * `withBody: false` for an answer that may go to a HEAD request: a body there would be read as
   * the start of another answer.
   * @param {number} status
   * @param {string} reason
   * @param {ProblemCode} code
   * @param {string} detail
   * @param {{ extra?: string, withBody?: boolean }} [options]
   */
  function rawAnswer(status, reason, code, detail, { extra = "", withBody = true } = {}) {
    const id = crypto.randomUUID();
    logger.info({ req_id: id, status, code }, "refused before a request");
    const body = withBody ? problemBody(code, detail, id) : "";
    /** @type {Record<string, string>} */
    const type = withBody ? { "content-type": "application/problem+json" } : {};
    const head = Object.entries({ ...sets.api, ...type, "cache-control": "no-store" })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    return `HTTP/1.1 ${status} ${reason}\r\n${head}${extra}x-request-id: ${id}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
  }

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {ProblemCode} code
   * @param {string} detail
   * @param {OutgoingHttpHeaders} [headers]
   */
  function answer(req, res, code, detail, headers = {}) {
    const body = problemBody(code, detail, req.headers["x-request-id"] ?? crypto.randomUUID());
    // A refused request's body is never read: the connection closes after the answer, rather
    // than leave the rest of the body where the next request would be read (Node keeps a TRACE
    // connection open but resets it when the unread body arrives).
    const unreadBody = Number(req.headers["content-length"]) > 0 || req.headers["transfer-encoding"] !== undefined;
    res.writeHead(GATE_PROBLEMS[code].status, {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "content-length": Buffer.byteLength(body),
      ...(unreadBody ? { connection: "close" } : {}),
      ...headers,
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  /**
   * A temporary redirect (the base URL may change; a browser must not keep this one), with the
   * address in words for a client that does not follow it.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {string} location
   */
  function redirect(req, res, location) {
    const body = `Hallmark is at ${location}\n`;
    const unreadBody = Number(req.headers["content-length"]) > 0 || req.headers["transfer-encoding"] !== undefined;
    res.writeHead(307, {
      location,
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "content-length": Buffer.byteLength(body),
      ...(unreadBody ? { connection: "close" } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  return {
    /**
     * Screens one request; true when the gate answered it (Next.js must not see it), false when
     * it may go on, with its headers set and its request headers normalised.
     * @param {IncomingMessage} req
     * @param {ServerResponse} res
     */
    screen(req, res) {
      // A server's request always has a method (only a client's response has none).
      const method = req.method ?? "";
      const url = req.url ?? "";
      const q = url.indexOf("?");
      const path = q === -1 ? url : url.slice(0, q);
      const kind = kindOfPath(path);
      const headers = req.headers;
      // Next.js takes the script nonce from the request's CSP header: only the gate may set it.
      delete headers["content-security-policy-report-only"];
      if (kind === "page") {
        setAll(res, sets.pageCommon);
        const policy = sets.pagePolicy(crypto.randomBytes(16).toString("base64"), { inlineStyles: path === "/docs" });
        headers["content-security-policy"] = policy;
        res.setHeader("content-security-policy", policy);
      } else {
        delete headers["content-security-policy"];
        setAll(res, kind === "api" ? sets.api : sets.staticFiles);
        // Set first, so every answer to a public read carries it, the gate's own refusals included.
        if (kind === "api" && isPublicRead(path)) {
          setAll(res, PUBLIC_READ_HEADERS);
          if (method === "OPTIONS" && headers["access-control-request-method"] !== undefined) {
            res.writeHead(204, { ...PUBLIC_PREFLIGHT_HEADERS, "cache-control": "no-store" });
            res.end();
            return true;
          }
        }
      }

      if (!ALLOWED.has(method)) {
        return answer(req, res, "method_not_allowed", `${method} is not served here.`, { allow: ALLOWED_METHODS.join(", ") });
      }
      if (!path.startsWith("/") || !decodes(path)) {
        return answer(req, res, "malformed_request", "The request path is not a valid percent-encoded path.");
      }
      if (hasDotSegment(path)) {
        return answer(req, res, "malformed_request", 'The request path has a "." or ".." segment (percent-encoded or not).');
      }
      if (kind === "page") {
        if (!PAGE_METHODS.includes(method)) {
          return answer(req, res, "method_not_allowed", `Pages are only read; ${method} is not served here.`, {
            allow: PAGE_METHODS.join(", "),
          });
        }
        const state = headers["next-router-state-tree"];
        if (state !== undefined && !routerStateIsValid(state)) {
          return answer(req, res, "malformed_request", "The Next-Router-State-Tree header is not a router state.");
        }
        const location = baseHostRedirect({ method, path, target: url, headers }, base, trustedProxies);
        if (location) return redirect(req, res, location);
      }
      // Absolute URLs and redirects are Hallmark's own, never the Host a client chose.
      headers.host = base.host;
      headers["x-forwarded-host"] = base.host;
      headers["x-forwarded-proto"] = protocol;
      // Node joins a header sent more than once into one string; only Set-Cookie comes as a list.
      const forwardedFor = /** @type {string | undefined} */ (headers["x-forwarded-for"]);
      headers["x-forwarded-for"] = resolveClientAddress(forwardedFor, req.socket.remoteAddress, trustedProxies);
      delete headers["x-real-ip"];
      if (kind === "api") {
        const refusal = crossOriginRefusal(method, path, headers, base.origin);
        if (refusal) return answer(req, res, "cross_origin_request", refusal);
        if (/^\/v1\/log\/(?:shards\/[0-9a-f]{64}\/)?tile\//.test(path)) passEncoding(res);
      }
      return false;
    },

    /**
     * Answers a request that failed after the gate let it through (Next.js's handler threw).
     * @param {IncomingMessage} req
     * @param {ServerResponse} res
     * @param {unknown} err
     */
    fail(req, res, err) {
      logger.error({ req_id: req.headers["x-request-id"], method: req.method, err }, "failed before a route answered");
      if (res.headersSent) return res.destroy();
      answer(req, res, "internal_error", "An internal error occurred.");
    },

    /**
     * CONNECT never becomes a request (Node hands over the socket): answered 405 and closed.
     * @param {IncomingMessage} _req
     * @param {Duplex} socket
     */
    onConnect(_req, socket) {
      socket.end(
        rawAnswer(405, "Method Not Allowed", "method_not_allowed", "CONNECT is not served here.", {
          extra: `allow: ${ALLOWED_METHODS.join(", ")}\r\n`,
        }),
      );
    },

    /**
     * A request the HTTP parser refused (unknown method, bad header, oversized headers).
     * @param {Error & { code?: string, rawPacket?: Buffer }} err
     * @param {Duplex} socket
     */
    onClientError(err, socket) {
      if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
      // The problem body unless the failed packet shows a HEAD request line. A packet may be a
      // later piece of the request, whose method cannot be known: it gets the body, since a
      // HEAD with headers that large is rare, and the connection closes after the answer, so
      // a client that expected no body reads nothing after it.
      const line = /^([A-Z-]+) /.exec(err.rawPacket?.subarray(0, 16).toString("latin1") ?? "");
      const withBody = line?.[1] !== "HEAD";
      socket.end(
        err.code === "HPE_HEADER_OVERFLOW"
          ? rawAnswer(431, "Request Header Fields Too Large", "headers_too_large", "The request headers are too large.", { withBody })
          : rawAnswer(400, "Bad Request", "malformed_request", "The request is not valid HTTP/1.1.", { withBody }),
      );
    },
  };
}

/**
 * Next.js drops a route handler's Content-Encoding (it assumes fetch decoded the body), so a
 * route that sends an encoded body names it in ENCODING_HEADER, and this moves it into
 * Content-Encoding as the headers are written.
 */
export const ENCODING_HEADER = "x-hallmark-content-encoding";
/** @param {ServerResponse} res */
function passEncoding(res) {
  const writeHead = res.writeHead;
  /** @param {unknown[]} args writeHead's, whichever of its forms, passed on as they are */
  res.writeHead = (...args) => {
    const encoding = res.getHeader(ENCODING_HEADER);
    if (encoding !== undefined) {
      res.removeHeader(ENCODING_HEADER);
      res.setHeader("content-encoding", encoding);
    }
    return writeHead.apply(res, /** @type {Parameters<typeof writeHead>} */ (args));
  };
}
