// "Check a proof file" (/verify): a visitor drops a proof they hold and their browser checks it
// against the log's key and policy. A sealed leaf taken from the log's tiles is a sealed entry
// whose content is its owner's, and the page names nothing of it; a public protection's proof
// names its attestation and hash; a tampered one fails with the check that caught it.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { seedConsumer } from "../accounts";
import { strangersTlogProof } from "../public-log";
import { checkPageQuality, expect, test } from "./support";
import { mint, tempDir } from "./visitor-fixtures";

const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;

let dir: string;
let sealedProof: string;
let publicProof: string;
let hidden: { protection_id: string; attestation_id: string; hash: string; title: string };
let shown: { hash: string; attestation_id: string };

/** The protection's log index, from its owner's own bundle. */
async function logIndexOf(apiKey: string, attestationId: string): Promise<number> {
  const res = await fetch(`${baseURL}/v1/attestations/${attestationId}/proof-bundle?witnessed=optional`, {
    headers: { "x-api-key": apiKey },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { attestation: { log_index: number } }).attestation.log_index;
}

test.beforeAll(async () => {
  dir = tempDir();
  const tag = randomUUID().slice(0, 6);
  const owner = await seedConsumer({ name: `Secret Sofia ${tag}` });
  hidden = await mint(owner.apiKey, dir, { title: `Unreleased ${tag}`, visibility: "private", fileName: `draft-${tag}.txt` });
  const other = await seedConsumer({ name: `Open Otto ${tag}` });
  shown = await mint(other.apiKey, dir, { title: `Released ${tag}`, visibility: "public", fileName: `release-${tag}.txt` });
  // Made only of what the log publishes: the leaf from its entry bundle, a proof from its tiles.
  sealedProof = path.join(dir, "sealed.tlog-proof");
  fs.writeFileSync(sealedProof, await strangersTlogProof(baseURL, await logIndexOf(owner.apiKey, hidden.attestation_id)));
  publicProof = path.join(dir, "public.tlog-proof");
  fs.writeFileSync(publicProof, await strangersTlogProof(baseURL, await logIndexOf(other.apiKey, shown.attestation_id)));
});

test("a sealed leaf from the log's tiles is a sealed entry whose content is its owner's @phone", async ({ page }, testInfo) => {
  await page.goto("/verify");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check a proof file");
  await page.getByLabel("Choose a proof file").setInputFiles(sealedProof);
  const summary = page.getByTestId("proof-summary");
  await expect(summary).toContainText("The proof verifies");
  await expect(summary).toContainText("A sealed entry");
  await expect(summary).toContainText("whose content is its owner's");
  const checks = page.getByRole("list", { name: "Checks" });
  await expect(checks.locator('[data-check="inclusion"]')).toContainText("Passed");
  await expect(checks.locator('[data-check="sealed_entry"]')).toContainText("Not checked");
  // Nothing of the protection, its attestation, its hash or its title is on the page.
  for (const secret of [hidden.protection_id, hidden.attestation_id, hidden.hash, hidden.title])
    await expect(page.locator("body")).not.toContainText(secret);
  await checkPageQuality(page, testInfo, "verify-proof-sealed");
});

test("a public protection's proof names its attestation and hash; a tampered copy fails", async ({ page }) => {
  await page.goto("/verify");
  await page.getByLabel("Choose a proof file").setInputFiles(publicProof);
  const summary = page.getByTestId("proof-summary");
  await expect(summary).toContainText("The proof verifies");
  await expect(summary).toContainText(`A signed attestation of sha256:${shown.hash}`);
  const text = fs.readFileSync(publicProof, "utf8");
  const tampered = path.join(dir, "tampered.tlog-proof");
  fs.writeFileSync(
    tampered,
    text.replace(/^index (\d+)$/m, (_, n: string) => `index ${Number(n) + 1}`),
  );
  await page.getByLabel("Choose a proof file").setInputFiles(tampered);
  await expect(summary).toContainText("The proof does not verify");
  await expect(page.getByRole("list", { name: "Checks" }).locator('[data-check="inclusion"]')).toContainText("Failed");
});
