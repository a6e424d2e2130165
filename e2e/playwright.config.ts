// The browser suite: real Chromium (Debian's headless shell, or its full browser) against the
// `next start` that scripts/test.mjs runs; it passes the server's URL in HALLMARK_TEST_BASE_URLS
// and the Chromium it found in HALLMARK_CHROMIUM.
import { defineConfig, devices } from "@playwright/test";

const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0];
if (!baseURL) throw new Error("Run the browser suite through `npm test` (HALLMARK_TEST_BASE_URLS is not set).");
// scripts/test.mjs chooses the Chromium (its one default) and passes it.
const executablePath = process.env.HALLMARK_CHROMIUM;
if (!executablePath) throw new Error("Run the browser suite through `npm test` (HALLMARK_CHROMIUM is not set).");

const launchOptions = {
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "./web",
  outputDir: process.env.HALLMARK_PW_OUTPUT ?? "../test-results/web",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: process.env.HALLMARK_PW_JSON ?? "../test-results/web.json" }]],
  // No trace by default: recording one (a screenshot and a DOM snapshot at every step) made each
  // test about a third slower on two cores, for files a CI run never keeps. A failure still leaves
  // its screenshot; HALLMARK_TEST_WEB_ARGS="--trace retain-on-failure" records traces again.
  use: { baseURL, launchOptions, trace: "off", screenshot: "only-on-failure", acceptDownloads: true },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions } },
    // Phone-sized: the layout checks and screenshots run here too (spec files opt in by tag).
    { name: "phone", use: { ...devices["Pixel 7"], launchOptions }, grep: /@phone/ },
  ],
});
