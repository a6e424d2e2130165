// Content Credentials beside Hallmark's answer: a file carrying a C2PA manifest (c2pa-rs's
// published sample, fixtures/c2pa) shows its signer, generator, date, actions, ingredients and
// validation state on /check and on a verify page, read in the browser; a changed copy reads as
// invalid; a file without credentials says so in one line.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { seedConsumer } from "../accounts";
import { expect, test } from "./support";

const SAMPLE = path.resolve("e2e/web/fixtures/c2pa/CA.jpg");
const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;

test("a file with Content Credentials shows them on /check, and whether Hallmark holds its bytes", async ({ page }, testInfo) => {
  await page.goto("/check");
  await page.getByLabel("Choose a file to look up").setInputFiles(SAMPLE);
  const credentials = page.getByTestId("content-credentials");
  await expect(credentials.getByTestId("credentials-state")).toContainText("Content Credentials", { timeout: 30_000 });
  // What c2pa-rs's sample states: an edit of A.jpg by its test tool, signed by its test certificate.
  await expect(credentials.getByTestId("credentials-state")).toHaveText(
    "“CA.jpg”: Content Credentials intact and validly signed; the signer is not on the trust list this reader knows.",
  );
  const facts = credentials.locator("dl");
  await expect(facts).toContainText("Signed byC2PA Test Signing Cert");
  await expect(facts).toContainText("Made withmake_test_images 0.33.1");
  await expect(facts).toContainText("Signed onTue, 06 Aug 2024 21:53:37 GMT");
  await expect(facts).toContainText("Actionsc2pa.opened; c2pa.color_adjustments");
  await expect(facts).toContainText("IngredientsA.jpg (parentOf)");
  await expect(facts).toContainText("On Hallmarkthese exact bytes are not a public Hallmark protection");
  await expect(credentials).toContainText("signingCredential.untrusted");

  // Changed after signing: a byte of the picture data, before the end marker.
  const bytes = fs.readFileSync(SAMPLE);
  bytes[bytes.length - 200]! ^= 0x55;
  const changed = testInfo.outputPath("changed.jpg");
  fs.mkdirSync(path.dirname(changed), { recursive: true });
  fs.writeFileSync(changed, bytes);
  await page.getByLabel("Choose a file to look up").setInputFiles(changed);
  await expect(credentials.getByTestId("credentials-state")).toContainText("Content Credentials invalid", { timeout: 30_000 });
  await expect(credentials).toContainText("assertion.dataHash.mismatch");
});

test("a verify page reads a dropped file's credentials, and a file without any says so", async ({ page }, testInfo) => {
  const { apiKey } = await seedConsumer({ name: `Cora Credentials ${randomUUID().slice(0, 6)}` });
  const res = await fetch(`${baseURL}/v1/consumer/mint`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ content_hash: createHash("sha256").update(fs.readFileSync(SAMPLE)).digest("hex"), visibility: "public" }),
  });
  expect(res.status).toBe(201);
  const { protection_id } = (await res.json()) as { protection_id: string };
  await page.goto(`/verify/${protection_id}`);
  await page.getByLabel("Check your file").setInputFiles(SAMPLE);
  await expect(page.getByText("Your file matches this protection")).toBeVisible();
  const credentials = page.getByTestId("content-credentials");
  await expect(credentials).toContainText("these exact bytes are this protection's file", { timeout: 30_000 });
  await expect(credentials.getByTestId("credentials-state")).toContainText("Content Credentials");

  const plain = testInfo.outputPath("plain.txt");
  fs.mkdirSync(path.dirname(plain), { recursive: true });
  fs.writeFileSync(plain, "no credentials here\n");
  await page.getByLabel("Check your file").setInputFiles(plain);
  await expect(credentials).toContainText(/This (kind of file is not read for|file carries no) Content Credentials/);
});
