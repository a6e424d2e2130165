import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    projects: [
      {
        // Server modules import "server-only", which throws outside React's server condition.
        resolve: { alias: { "@": root, "server-only": `${root}node_modules/server-only/empty.js` } },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
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
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
