// @ts-check
// One request's life as the operator sees it: its id (X-Request-Id), its route pattern, and the
// line and metrics written when its answer ends. Plain ESM for scripts/serve.mjs; the route
// handlers add what only they know (the operation's path template, the principal's tenant)
// through noteRequest, keyed by the request id.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { logger } from "./logger.mjs";
import { metrics } from "./metrics.mjs";

/**
 * What the route handlers tell of a request (noteRequest).
 * @typedef {{ route?: string, tenant?: string }} RequestFacts
 */
/**
 * A route of the build: its pattern, the paths it matches, and its precedence, lowest first
 * (fewer catch-all segments, then fewer dynamic ones, then more segments).
 * @typedef {{ route: string, regex: RegExp, rank: [number, number, number] }} RoutePattern
 */

/** The paths scripts/serve.mjs answers itself. */
const OPERATOR_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** A caller's X-Request-Id is kept when it is a plain token; anything else is replaced. */
const CALLER_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request's id: the caller's X-Request-Id when it is a plain token (a proxy's, say), else a new UUID.
 * @param {unknown} sent
 * @returns {string}
 */
export function assignRequestId(sent) {
  return typeof sent === "string" && CALLER_ID.test(sent) ? sent : crypto.randomUUID();
}

/** The process's slot for the open requests' facts (one for every copy of this module). */
const shared = /** @type {{ __hallmarkRequestFacts?: Map<string, RequestFacts> }} */ (globalThis);
const open = (shared.__hallmarkRequestFacts ??= /** @type {Map<string, RequestFacts>} */ (new Map()));

/**
 * What a route handler knows of a request still open (a late note, after its answer ended, is dropped).
 * @param {string | null | undefined} id
 * @param {RequestFacts} facts
 */
export function noteRequest(id, facts) {
  const f = id && open.get(id);
  if (f) Object.assign(f, facts);
}

/**
 * @param {string} key
 * @returns {RoutePattern}
 */
function patternOf(key) {
  // "/verify/[id]/page" → a regex for /verify/<segment>; catch-alls take the rest of the path.
  const route = key.replace(/\/(page|route)$/, "") || "/";
  const segments = route.split("/").filter(Boolean);
  let dynamic = 0;
  let catchAll = 0;
  const source = segments
    .map((s) => {
      if (/^\[\[\.\.\..+\]\]$/.test(s)) return (catchAll++, "(?:/.*)?");
      if (/^\[\.\.\..+\]$/.test(s)) return (catchAll++, "/.+");
      if (/^\[.+\]$/.test(s)) return (dynamic++, "/[^/]+");
      return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { route, regex: new RegExp(`^${source || "/"}$`), rank: [catchAll, dynamic, -segments.length] };
}

/**
 * The route pattern of a path, from the build's app-paths manifest: "/verify/[id]", "/_next"
 * for the build's own assets, "unmatched" for anything no route serves (a bounded label).
 * @param {string} distDir
 * @returns {(pathname: string) => string}
 */
export function createRouteNamer(distDir) {
  /** @type {RoutePattern[]} */
  let patterns = [];
  try {
    /** @type {Record<string, string>} */
    const manifest = JSON.parse(fs.readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8"));
    patterns = Object.keys(manifest)
      .filter((k) => !k.startsWith("/_"))
      .map(patternOf)
      .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.rank[2] - b.rank[2]);
  } catch {
    // No manifest (development before a compile): every path is "unmatched" unless a handler names it.
  }
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return "/_next";
    if (OPERATOR_PATHS.has(pathname)) return pathname;
    for (const p of patterns) if (p.regex.test(pathname)) return p.route;
    return "unmatched";
  };
}

/**
 * Tracks a request from its arrival: gives it its id (on the request, for the handlers, and on
 * the answer), and when the answer ends (or the client leaves first: 499) writes its log line
 * and its metrics.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {(pathname: string) => string} routeOf
 * @returns {string}
 */
export function trackRequest(req, res, routeOf) {
  const started = performance.now();
  const id = assignRequestId(req.headers["x-request-id"]);
  req.headers["x-request-id"] = id;
  res.setHeader("x-request-id", id);
  /** @type {RequestFacts} */
  const facts = {};
  open.set(id, facts);
  res.once("close", () => {
    open.delete(id);
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : 499;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const route = facts.route ?? routeOf(q < 0 ? url : url.slice(0, q));
    const labels = { method: req.method ?? "GET", route, status: String(status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, seconds);
    logger.info(
      {
        req_id: id,
        method: labels.method,
        route,
        status,
        ms: Math.round(seconds * 10_000) / 10,
        ...(facts.tenant ? { tenant: facts.tenant } : {}),
      },
      "request",
    );
  });
  return id;
}
