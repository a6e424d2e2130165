import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Every core: Vitest's default leaves one free (one worker on these two-core machines), and
    // the unit files, each on a database and log of its own, run side by side. The REST files of
    // one lane still run one at a time (fileParallelism below).
    maxWorkers: "100%",
    projects: [
      {
        // Server modules import "server-only", which throws outside React's server condition.
        resolve: { alias: { "@": root, "server-only": `${root}node_modules/server-only/empty.js` } },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          // Migrations applied once per run; each test log starts from a copy.
          globalSetup: ["server/test-support/migrated-templates.ts"],
          environment: "node",
          // A guard against hangs, not a speed check: the exhaustive and property tests take up
          // to 8 s while the other files run beside them on two cores.
          testTimeout: 30_000,
          // The server code's info lines (a sequencer batch each) would bury the test output.
          env: { HALLMARK_LOG_LEVEL: process.env.HALLMARK_LOG_LEVEL ?? "warn" },
        },
      },
      {
        // The fuzz suite reads the tRPC router's procedures (their names, kinds and input fields).
        resolve: { alias: { "@": root, "server-only": `${root}node_modules/server-only/empty.js` } },
        test: {
          name: "rest",
          include: ["e2e/api/**/*.test.ts"],
          environment: "node",
          // A guard against hangs, not a speed check: tests that start servers or run the CLI
          // several times take 20-40 s on two cores.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One module graph per lane, not per file: every file imports the account factory's
          // server modules (Prisma and its engine), which cost about 1.5 s of CPU to load each
          // time. The files share no state through modules (no mocks, no environment writes).
          isolate: false,
        },
      },
    ],
  },
});
