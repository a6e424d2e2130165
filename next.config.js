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
  serverExternalPackages: [
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
