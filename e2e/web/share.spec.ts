// The share page (a work and its creator, with the way to verify it) and the creator's
// public portfolio. Private work is its owner's alone: a 404 to anyone else, never listed.
import { randomUUID } from "node:crypto";
import { expect, test, checkPageQuality, logIn } from "./support";
import { mint, tempDir, type Minted } from "./visitor-fixtures";
import { seedConsumer, type SeededConsumer } from "../accounts";

let dir: string;
let creator: SeededConsumer;
let older: Minted;
let work: Minted;
let secret: Minted;

test.beforeAll(async () => {
  dir = tempDir();
  creator = await seedConsumer({ plan: "creator", name: "Shirin Sharer" });
  older = await mint(creator.apiKey, dir, {
    title: `Field recordings ${randomUUID().slice(0, 6)}`,
    visibility: "public",
    fileName: "field.txt",
    category: "media",
  });
  work = await mint(creator.apiKey, dir, {
    title: `The lighthouse keeper ${randomUUID().slice(0, 6)}`,
    visibility: "public",
    fileName: "lighthouse-keeper.txt",
    category: "writing",
    description: "A short story about light, salt and patience.\nSecond paragraph.",
  });
  secret = await mint(creator.apiKey, dir, {
    title: `Draft under embargo ${randomUUID().slice(0, 6)}`,
    visibility: "private",
    fileName: `embargoed-${randomUUID().slice(0, 6)}.txt`,
    description: `Embargoed synopsis ${randomUUID().slice(0, 6)}`,
  });
});

test("a public share page presents the work and its creator, and links to verify @phone", async ({ page }, testInfo) => {
  await page.goto(`/share/${work.protection_id}`);
  await expect(page.getByRole("heading", { level: 1, name: work.title })).toBeVisible();
  await expect(page.getByText("A short story about light, salt and patience.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Shirin Sharer" })).toHaveAttribute("href", new RegExp(`/portfolio/${creator.userId}$`));
  await expect(page.getByText("lighthouse-keeper.txt")).toBeVisible();
  await expect(page.getByText(/Writing/).first()).toBeVisible();
  await expect(page.getByText(`${work.hash.slice(0, 10)}…${work.hash.slice(-6)}`)).toBeVisible();
  // Open Graph metadata names the work.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `${work.title} by Shirin Sharer`);
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", /light, salt and patience/);
  await expect(page).toHaveTitle(new RegExp(work.title));
  await checkPageQuality(page, testInfo, "share");

  await page.getByRole("link", { name: "Verify this work" }).click();
  await expect(page).toHaveURL(new RegExp(`/verify/${work.protection_id}$`));
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
});

test("a private share page is a 404 to a visitor, and shows its owner the work and that only they see it @phone", async ({
  page,
}, testInfo) => {
  const res = await page.goto(`/share/${secret.protection_id}`);
  expect(res?.status()).toBe(404);
  const html = await page.content();
  for (const hidden of [secret.title, secret.description, secret.fileName, secret.hash, "Shirin Sharer", `/portfolio/${creator.userId}`])
    expect(html, hidden).not.toContain(hidden);

  await logIn(page, creator);
  await page.goto(`/share/${secret.protection_id}`);
  await expect(page.getByText("Private: only you can see this page.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: secret.title })).toBeVisible();
  await expect(page.getByRole("link", { name: "Verify this work" })).toHaveAttribute("href", `/verify/${secret.protection_id}`);
  // Nothing of it goes into the metadata a preview could keep.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "A protected work");
  await checkPageQuality(page, testInfo, "share-private");
});

test("an unknown share link is a 404", async ({ page }) => {
  const res = await page.goto(`/share/${randomUUID()}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Protection not found" })).toBeVisible();
});

test("the portfolio lists only public work, newest first, each linking to its share page @phone", async ({ page }, testInfo) => {
  await page.goto(`/portfolio/${creator.userId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Shirin Sharer" })).toBeVisible();
  await expect(page.getByText(/Member since \w+ \d{4} · 2 public works/)).toBeVisible();
  const cards = page.getByRole("list").last().getByRole("link");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText(work.title);
  await expect(cards.nth(1)).toContainText(older.title);
  expect(await page.content()).not.toContain(secret.title);
  await checkPageQuality(page, testInfo, "portfolio");

  await cards.nth(0).click();
  await expect(page).toHaveURL(new RegExp(`/share/${work.protection_id}$`));
  await expect(page.getByRole("heading", { level: 1, name: work.title })).toBeVisible();
});

test("a portfolio pages through older work", async ({ page }) => {
  const prolific = await seedConsumer({ plan: "creator", name: "Paz Prolific" });
  const titles: string[] = [];
  for (let i = 1; i <= 13; i++) {
    titles.push(`Sketch number ${i} ${randomUUID().slice(0, 4)}`);
    await mint(prolific.apiKey, dir, { title: titles[i - 1]!, visibility: "public", fileName: `sketch-${i}.txt`, category: "design" });
  }
  await page.goto(`/portfolio/${prolific.userId}`);
  const cards = page.getByRole("list").last().getByRole("link");
  await expect(cards).toHaveCount(12);
  await expect(cards.first()).toContainText(titles[12]!);
  await expect(page.getByText("Showing 1–12 of 13")).toBeVisible();
  await page.getByRole("link", { name: "Older work →" }).click();
  await expect(page).toHaveURL(/offset=12/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(titles[0]!);
  await page.getByRole("link", { name: "← Newer work" }).click();
  await expect(cards).toHaveCount(12);
});

test("a creator without public work has an empty portfolio; unknown ids are a 404 @phone", async ({ page }, testInfo) => {
  const quiet = await seedConsumer({ plan: "creator", name: "Quinn Quiet" });
  await mint(quiet.apiKey, dir, { title: "Only private", visibility: "private", fileName: "only-private.txt" });
  await page.goto(`/portfolio/${quiet.userId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Quinn Quiet" })).toBeVisible();
  await expect(page.getByText("No public work yet")).toBeVisible();
  expect(await page.content()).not.toContain("Only private");
  await checkPageQuality(page, testInfo, "portfolio-empty");

  for (const id of [randomUUID(), "nobody"]) {
    const res = await page.goto(`/portfolio/${id}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Portfolio not found" })).toBeVisible();
  }
  await checkPageQuality(page, testInfo, "portfolio-not-found");
});
