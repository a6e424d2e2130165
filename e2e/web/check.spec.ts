// "Who protected this file?" (/check): a visitor drops a file, their browser hashes it and asks
// GET /v1/lookup, and the page names the first claim in words, with a verify link for each
// public protection and nothing of private ones: a file only a private protection holds reads
// exactly as a file no one protected.
import { randomUUID } from "node:crypto";
import { expect, test, checkPageQuality, openBeforeScripts } from "./support";
import { tempDir, writeFile } from "./visitor-fixtures";
import { seedConsumer } from "../accounts";

const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;

async function protect(hash: string, body: Record<string, unknown>, name: string) {
  const { apiKey } = await seedConsumer({ name });
  const res = await fetch(`${baseURL}/v1/consumer/mint`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ content_hash: hash, ...body }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { protection_id: string };
}

let dir: string;
let work: { path: string; hash: string };
let first: { protection_id: string };
const tag = randomUUID().slice(0, 6);
const firstName = `Fenna First ${tag}`;
const secret = `Unreleased ${tag}`;

test.beforeAll(async () => {
  dir = tempDir();
  work = writeFile(dir, "lighthouse.txt");
  await protect(work.hash, { title: secret, file_name: `${secret}.txt`, visibility: "private" }, `Hidden Hand ${tag}`);
  first = await protect(work.hash, { title: `Lighthouse ${tag}`, visibility: "public" }, firstName);
  await protect(work.hash, { title: `Lighthouse copy ${tag}`, visibility: "public" }, `Second Sam ${tag}`);
});

test("the header leads to /check, where a protected file names its first creator and every public claim @phone", async ({
  page,
}, testInfo) => {
  const workers: string[] = [];
  page.on("worker", (w) => workers.push(w.url()));
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Check a file" }).click();
  await expect(page).toHaveURL(/\/check$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Who protected this file?");

  await page.getByLabel("Choose a file to look up").setInputFiles(work.path);
  const status = page.getByRole("status");
  // The private protection came first: it is not said, nor counted.
  await expect(status).toContainText(new RegExp(`First protected by ${firstName} on \\d{1,2} \\w+ \\d{4}, 1 other since\\.`));
  await expect(status).toContainText("2 public protections.");
  await expect(status).not.toContainText("private one");
  await expect(status).toContainText(`sha256:${work.hash}`);
  const items = page.getByRole("region", { name: "Public protections, first claim first" }).getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(firstName);
  await expect(items.nth(1)).toContainText(`Second Sam ${tag}`);
  // The private protection shows no title, name or file name anywhere on the page.
  await expect(page.locator("body")).not.toContainText(secret);
  await expect(page.locator("body")).not.toContainText(`Hidden Hand ${tag}`);
  expect(workers.length).toBe(1); // hashed in a Web Worker, off the main thread

  await checkPageQuality(page, testInfo, "check-found");
  await items
    .first()
    .getByRole("link", { name: /^Verify/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/verify/${first.protection_id}$`));
});

test("a file chosen before the page's scripts have run is looked up once they have", async ({ page }) => {
  const { release } = await openBeforeScripts(page, "/check");
  await page.getByLabel("Choose a file to look up").setInputFiles(work.path);
  release();
  await expect(page.getByRole("status")).toContainText(new RegExp(`First protected by ${firstName} on `));
});

test("a file no one protected says so plainly @phone", async ({ page }, testInfo) => {
  await page.goto("/check");
  const text = `never protected ${randomUUID()}\n`;
  const dataTransfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], "draft.txt", { type: "text/plain" }));
    return dt;
  }, text);
  await page.getByTestId("file-drop-zone").dispatchEvent("drop", { dataTransfer });
  const status = page.getByRole("status");
  await expect(status).toContainText("No one has publicly protected this file with Hallmark");
  await expect(status).toContainText("draft.txt");
  await expect(page.getByRole("region", { name: "Public protections, first claim first" })).toHaveCount(0);
  await checkPageQuality(page, testInfo, "check-none");
});

test("a file only a private protection holds reads exactly as a file no one protected", async ({ page }) => {
  const held = writeFile(dir, "held.txt");
  const unknown = writeFile(dir, "unknown.txt");
  await protect(held.hash, { title: secret, visibility: "private" }, `Hidden Hand ${tag}`);
  await page.goto("/check");
  const status = page.getByRole("status");
  const answerFor = async (file: { path: string; hash: string }) => {
    await page.getByLabel("Choose a file to look up").setInputFiles(file.path);
    await expect(status).toContainText(`sha256:${file.hash}`);
    return (await status.innerText()).replace(file.hash, "<hash>").replace(/held\.txt|unknown\.txt/, "<name>");
  };
  const [a, b] = [await answerFor(held), await answerFor(unknown)];
  expect(a).toContain("No one has publicly protected this file with Hallmark");
  expect(a).toBe(b);
});
