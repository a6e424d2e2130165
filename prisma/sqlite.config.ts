// Prisma CLI configuration for SQLite (WebAssembly schema engine via the driver adapter).
// Used by scripts/prisma.mjs; the app builds its own client in server/db.ts.
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? "file:./data/hallmark.db" });
  },
});
