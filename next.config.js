import { readEnv } from "./server/env.mjs";

// Fail the build, not a request, on a bad configuration.
readEnv();

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and driver modules stay plain Node requires instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"],
};

export default nextConfig;
