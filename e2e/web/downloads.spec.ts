// What a creator takes from the Protections page: a protection's badge (it renders, and its HTML
// and Markdown snippets embed it as a link to the verify page, for light and dark pages), and
// the export of every protection with its proofs; and its certificate, from every place that offers it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, checkPageQuality, logIn } from "./support";
import { seedConsumer } from "../accounts";
import { verdict } from "../api/verdict";
import { cli } from "../cli";

const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;
const randomHash = () => randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "");

async function mintFor(apiKey: string, title: string) {
  const res = await fetch(`${baseURL}/v1/consumer/mint`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ content_hash: randomHash(), title, visibility: "public" }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { protection_id: string; verify_url: string };
}

test("the export button downloads a zip of every protection with its proofs @phone", async ({ page }, testInfo) => {
  const creator = await seedConsumer({ plan: "creator" });
  const a = await mintFor(creator.apiKey, "First export work");
  const b = await mintFor(creator.apiKey, "Second export work");
  await logIn(page, creator);
  await page.goto("/dashboard/protections");
  await checkPageQuality(page, testInfo, "protections-export");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download all, with proofs (.zip)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^hallmark-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = testInfo.outputPath("export.zip");
  await download.saveAs(file);
  const listing = spawnSync("unzip", ["-Z1", file], { encoding: "utf8" });
  expect(listing.status, listing.stderr).toBe(0);
  const names = listing.stdout.trim().split("\n").sort();
  expect(names).toEqual(
    [
      "README.txt",
      "log/log.pem",
      "log/policy.txt",
      "log/verifier-key.txt",
      ...[a, b].flatMap(({ protection_id: id }) => [
        `protections/${id}/${id}.tlog-proof`,
        `protections/${id}/certificate.pdf`,
        `protections/${id}/proof-bundle.json`,
        `protections/${id}/protection.json`,
      ]),
    ].sort(),
  );
});

test("a protection's badge renders and its snippets link to the verify page @phone", async ({ page }, testInfo) => {
  const creator = await seedConsumer({ plan: "creator" });
  const title = `Badge work ${randomUUID().slice(0, 6)}`;
  const minted = await mintFor(creator.apiKey, title);
  await logIn(page, creator);
  await page.goto("/dashboard/protections");
  const row = page.getByRole("listitem").filter({ has: page.getByRole("article", { name: title }) });
  await row.getByText("Badge for your site").click();

  const preview = row.getByRole("img", { name: /Badge preview/ });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
  const src = `${baseURL}/v1/protections/${minted.protection_id}/badge.svg`;
  await expect(row.getByLabel("HTML")).toHaveValue(
    `<a href="${minted.verify_url}"><img src="${src}" alt="Protected with Hallmark: verify this work" height="20"></a>`,
  );
  await expect(row.getByLabel("Markdown")).toHaveValue(`[![Protected with Hallmark: verify this work](${src})](${minted.verify_url})`);
  await checkPageQuality(page, testInfo, "badge-light");

  await row.getByLabel("For a dark page").check();
  await expect(row.getByLabel("Markdown")).toHaveValue(
    new RegExp(`badge\\.svg\\?theme=dark\\)\\]\\(${minted.verify_url.replace(/[.?]/g, "\\$&")}\\)$`),
  );
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
  await checkPageQuality(page, testInfo, "badge-dark");

  // The snippet's HTML, on a page of its own, shows the badge and leads to the verify page.
  await page.setContent((await row.getByLabel("HTML").inputValue()).replace("?theme=dark", ""));
  const embedded = page.getByRole("link", { name: "Protected with Hallmark: verify this work" });
  await expect
    .poll(() => embedded.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(100);
  await embedded.click();
  await expect(page).toHaveURL(minted.verify_url);
});

test("a certificate downloads from the protections list, the verify page and the share page, and verifies offline @phone", async ({
  page,
}, testInfo) => {
  // Three downloads and two pages' quality checks: slow on two busy cores.
  test.slow();
  const creator = await seedConsumer({ plan: "creator" });
  const title = `Certified work ${randomUUID().slice(0, 6)}`;
  const minted = await mintFor(creator.apiKey, title);
  const logPem = testInfo.outputPath("log.pem");
  fs.writeFileSync(logPem, ((await (await fetch(`${baseURL}/v1/log`)).json()) as { public_key: string }).public_key);
  const expectCertificate = async (click: () => Promise<void>, name: string) => {
    const [download] = await Promise.all([page.waitForEvent("download"), click()]);
    expect(download.suggestedFilename()).toBe(`hallmark-certificate-${minted.protection_id}.pdf`);
    const file = testInfo.outputPath(`${name}.pdf`);
    await download.saveAs(file);
    // The CLI verifies the first; the others reach the same verification in this process.
    if (name !== "from-list") return expect(await verdict(file, { logKey: logPem })).toBe("OK");
    const verified = spawnSync(...cli("verify", file, "--log-key", logPem), { encoding: "utf8" });
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain("pass certificate_text");
  };

  await logIn(page, creator);
  await page.goto("/dashboard/protections");
  const row = page.getByRole("listitem").filter({ has: page.getByRole("article", { name: title }) });
  await expectCertificate(() => row.getByRole("link", { name: `Certificate of ${title} (PDF)` }).click(), "from-list");

  await page.goto(`/verify/${minted.protection_id}`);
  await expectCertificate(() => page.getByRole("link", { name: "Download certificate (PDF)" }).click(), "from-verify");
  await checkPageQuality(page, testInfo, "verify-certificate");

  await page.goto(`/share/${minted.protection_id}`);
  await expectCertificate(() => page.getByRole("link", { name: "Download certificate (PDF)" }).click(), "from-share");
  await checkPageQuality(page, testInfo, "share-certificate");
});
