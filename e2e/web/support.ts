// Helpers for the browser suite (accounts come from ../accounts.ts): logging in as a visitor does,
// mail read from the SMTP catcher that scripts/test.mjs runs, and page-quality checks.
import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { mailsTo } from "../api/mail";

export { waitForMail, verificationLink } from "../api/mail";
export { expect };

/**
 * Waits (up to `timeoutMs`) for a message to `address` that `matches`; returns the newest such.
 * An address gets notices besides the mail a test waits for (a new key's, say), so tests pick by
 * what a message is, never by its place.
 */
export async function mailWhere(address: string, what: string, matches: (m: ParsedMail) => boolean, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(address)).filter(matches).at(-1);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no mail (${what}) for ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The newest message to `address` with this subject, waited for. */
export const mailWithSubject = (address: string, subject: string) => mailWhere(address, `"${subject}"`, (m) => m.subject === subject);

/**
 * Records every Content-Security-Policy violation in a browser context: the
 * `securitypolicyviolation` events of every document, and the browser's own console reports
 * ("Refused to …", which also cover what a page's workers were refused).
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("__hallmarkCspViolation", (_source, report: string) => void violations.push(report));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = `${e.effectiveDirective} refused ${e.blockedURI || "inline"} on ${location.pathname} (${e.sourceFile}:${e.lineNumber})`;
      (window as unknown as { __hallmarkCspViolation(r: string): void }).__hallmarkCspViolation(report);
    });
  });
  context.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(`console: ${msg.text()} on ${msg.page()?.url() ?? "?"}`);
  });
  return violations;
}

/**
 * Records every file a page asked Hallmark for and did not get (a 404 or 410 for an icon, image,
 * script, style, font or manifest). Documents and fetches are left out: specs open unknown pages
 * and call endpoints that refuse on purpose.
 */
export function watchMissingFiles(context: BrowserContext): string[] {
  const missing: string[] = [];
  context.on("response", (res) => {
    const req = res.request();
    if (["document", "fetch", "xhr", "eventsource", "websocket"].includes(req.resourceType())) return;
    if ((res.status() === 404 || res.status() === 410) && new URL(req.url()).origin === new URL(res.frame().url()).origin) {
      missing.push(`${res.status()} ${req.resourceType()} ${new URL(req.url()).pathname}`);
    }
  });
  return missing;
}

/**
 * Every spec's `test`: Playwright's, failing any test whose pages met a CSP violation, so the
 * policy the gate sends (server/gate/security-headers.mjs) is one the app really satisfies, or
 * asked for a file that is not there.
 */
export const test = base.extend<{ cspViolations: string[]; missingFiles: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations = await watchCsp(context);
      await use(violations);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  missingFiles: [
    async ({ context }, use) => {
      const missing = watchMissingFiles(context);
      await use(missing);
      expect(missing, "files the pages asked for and did not get").toEqual([]);
    },
    { auto: true },
  ],
});

export const uniqueEmail = (tag = "web") => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * Opens `url` with the page's scripts held back, as a slow device or network would: the
 * server-rendered page is there, React is not. `release()` lets the scripts load.
 */
export async function openBeforeScripts(page: Page, url: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  // Routing turns the browser's cache off, so every chunk comes through here.
  await page.route("**/_next/static/chunks/**", async (route) => {
    await released;
    await route.continue();
  });
  // Not "load" nor "domcontentloaded": the document waits on its held scripts for both.
  await page.goto(url, { waitUntil: "commit" });
  return { release };
}

/** Logs in through the login page, as a person would. */
export async function logIn(page: Page, account: { email: string; password: string }, landing: RegExp = /\/(dashboard|console)/) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(landing);
}

/**
 * The checks every page passes: no axe violations (WCAG 2 A/AA), nothing wider than the
 * viewport (a layout break on a phone shows as horizontal overflow), and a full-page
 * screenshot attached to the report for a person to look at.
 */
export async function checkPageQuality(page: Page, testInfo: TestInfo, name: string) {
  // Legacy mode: axe.run() in the page itself. The default (runPartial in each frame, then
  // finishRun in a blank page of its own) starts a renderer per check, half of these checks' CPU;
  // it differs only for cross-origin frames, which no page of Hallmark's has (its CSP allows none).
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).setLegacyMode().analyze();
  const violations = axe.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")})`,
  );
  expect(violations, `axe violations on ${name}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the viewport by ${overflow}px`).toBeLessThanOrEqual(0);
  // Kept under test-results/web-<build dir>/<test>/ after the run, for a person to look at. One
  // pixel per CSS pixel: a phone's device pixels (2.6 a CSS pixel on a Pixel 7) make a full page
  // seven times the image to encode, and show a reader nothing the layout does not.
  const file = testInfo.outputPath(`${name}-${testInfo.project.name}.png`);
  await page.screenshot({ path: file, fullPage: true, scale: "css" });
  await testInfo.attach(`${name}-${testInfo.project.name}.png`, { path: file, contentType: "image/png" });
}
