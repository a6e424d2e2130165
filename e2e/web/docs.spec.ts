import { checkPageQuality, expect, test } from "./support";

// The API reference at /docs: Scalar, served from this origin, built from /v1/openapi.json.
// Every test here fails on a CSP violation (./support), zod's probe for eval in Scalar's bundle
// included: the bundle is served with zod set not to probe (app/docs/scalar.js/bundle.ts).
test("the API reference lists the endpoints, from the landing page's link @phone", async ({ page }, testInfo) => {
  // Scalar renders the whole document in the browser: on two busy cores that took over 20 s.
  test.slow();
  await page.goto("/");
  await page.getByRole("link", { name: "API reference" }).first().click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "Hallmark API", level: 1 })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "API keys", level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "List API keys", level: 3 })).toBeVisible();
  if (testInfo.project.name === "desktop") {
    // The sidebar (a menu on a phone) names every group of endpoints.
    for (const group of [
      "API keys",
      "Issuers",
      "Attestations",
      "Consumer",
      "Public protections",
      "Packs",
      "Verifications",
      "Transparency log",
    ]) {
      await expect(page.getByRole("button", { name: new RegExp(`^(Open|Close) Group - ${group}$`) })).toBeAttached();
    }
  }
  await checkPageQuality(page, testInfo, "docs");
});

test("a request sent from the reference reaches the API and shows its answer", async ({ page }) => {
  await sendFromTheReference(page);
});

async function sendFromTheReference(page: import("@playwright/test").Page) {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Hallmark API", level: 1 })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Open Group - Transparency log" }).click();
  await page.getByRole("link", { name: "The log's identity, size and keys" }).first().click();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/log" && r.request().method() === "GET");
  await page.getByRole("button", { name: /Test Request \(get \/v1\/log\)/ }).click();
  await page.getByRole("button", { name: /^Send/ }).first().click();
  const res = await answered;
  expect(res.status()).toBe(200);
  await expect(page.getByText("200").first()).toBeVisible();
}
