// @ts-check
import { readEnv } from "./server/env.mjs";

// Fail the build, not a request, on a bad configuration.
readEnv();

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A separate build directory lets a benchmark build run beside the tests' build.
  distDir: process.env.HALLMARK_DIST_DIR || ".next",
  poweredByHeader: false,
  // Native and driver modules, and pdfkit (it reads its font metrics from its own folder), stay plain Node requires.
  // prom-client too: the metrics registry is shared with scripts/serve.mjs, which loads it from node_modules.
  // @opentelemetry/api: bundled and minified, its no-op tracer provider loses its class name, so
  // Next's tracer takes OpenTelemetry for enabled and keeps each request's root-span attributes,
  // URL included, in a Map until the handler settles, which never happens for a request whose
  // connection the server drops (a GET followed by bytes that are not HTTP): a leak per such
  // request. Required from node_modules, the name stays and no span is made
  // (e2e/api/tracer-leak.test.ts).
  serverExternalPackages: [
    "@opentelemetry/api",
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "pdfkit",
    "fontkit",
    "prom-client",
  ],
};

export default nextConfig;
