// The creator's Protect page (/dashboard) and Protections list (/dashboard/protections): files
// are hashed in the browser, the hash is minted, and the result's proof verifies offline.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { verifyProofBundle } from "../../lib/verify";
import { expect, test, checkPageQuality, logIn, openBeforeScripts } from "./support";
import { seedConsumer } from "../accounts";

/** A file on disk, written by the test, with its SHA-256 computed here in Node. */
function makeFile(testInfo: TestInfo, name: string, bytes: Buffer = randomBytes(3000 + Math.floor(Math.random() * 5000))) {
  const path = testInfo.outputPath(name);
  fs.mkdirSync(testInfo.outputPath(), { recursive: true });
  fs.writeFileSync(path, bytes);
  return { path, name, hash: createHash("sha256").update(bytes).digest("hex") };
}

/** A big file that costs nothing on disk: a sparse file with a few random bytes in it. */
function makeSparseFile(testInfo: TestInfo, name: string, size: number) {
  const path = testInfo.outputPath(name);
  fs.mkdirSync(testInfo.outputPath(), { recursive: true });
  const fd = fs.openSync(path, "w");
  const marks = [0, Math.floor(size / 3), size - 4096].map((at) => ({ at, bytes: randomBytes(4096) }));
  try {
    fs.ftruncateSync(fd, size);
    for (const m of marks) fs.writeSync(fd, m.bytes, 0, m.bytes.length, m.at);
  } finally {
    fs.closeSync(fd);
  }
  return { path, name };
}

async function sha256OfFile(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 4 << 20 })) h.update(chunk as Buffer);
  return h.digest("hex");
}

const card = (page: Page, fileName: string): Locator => page.getByRole("region", { name: fileName, exact: true });

async function logKeyPem(page: Page): Promise<string> {
  const res = await page.request.get("/v1/log");
  expect(res.status()).toBe(200);
  return (await res.json()).public_key as string;
}

/** The verify and share links of a protected file's card, checked to read as their full URLs. */
async function resultLinks(c: Locator) {
  const verify = c.getByRole("link", { name: /\/verify\// });
  const share = c.getByRole("link", { name: /\/share\// });
  const verifyUrl = (await verify.getAttribute("href"))!;
  const shareUrl = (await share.getAttribute("href"))!;
  await expect(verify).toHaveText(verifyUrl);
  await expect(share).toHaveText(shareUrl);
  const id = verifyUrl.split("/").pop()!;
  expect(verifyUrl).toMatch(new RegExp(`^https?://[^/]+/verify/${id}$`));
  expect(shareUrl).toMatch(new RegExp(`^https?://[^/]+/share/${id}$`));
  return { id, verifyUrl, shareUrl };
}

test.describe("Protect page", () => {
  test("takes a file chosen before the page's scripts have run", async ({ page }, testInfo) => {
    await logIn(page, await seedConsumer());
    const { release } = await openBeforeScripts(page, "/dashboard");
    const file = makeFile(testInfo, `early-${randomUUID().slice(0, 6)}.txt`);
    await page.getByLabel("Choose files").setInputFiles(file.path);
    release();
    await expect(card(page, file.name).getByText(file.hash, { exact: true })).toBeVisible();
  });

  test("hashes a file in the browser, mints it, and its proof bundle verifies offline", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Protect your work" })).toBeVisible();
    await expect(page.getByText("Your file never leaves this browser.")).toBeVisible();

    const file = makeFile(testInfo, `essay-${randomUUID().slice(0, 6)}.md`);
    await page.getByLabel("Choose files").setInputFiles(file.path);
    const c = card(page, file.name);
    await expect(c.getByText(file.hash, { exact: true })).toBeVisible();
    // Defaults: the title from the name without extension, the category from the type, private.
    await expect(c.getByLabel("Title")).toHaveValue(file.name.replace(/\.md$/, ""));
    await expect(c.getByLabel("Category")).toHaveValue("writing");
    await expect(c.getByRole("radio", { name: "Private", exact: true })).toBeChecked();
    await c.getByLabel("Description").fill("A first draft, written by hand.");
    // A double click mints once.
    await c.getByRole("button", { name: "Protect", exact: true }).dblclick();

    await expect(c.getByRole("heading", { name: "Protected" })).toBeVisible();
    const { id, shareUrl } = await resultLinks(c);
    await expect(c.getByRole("button", { name: "Copy verify link" })).toBeVisible();
    await expect(c.getByRole("button", { name: "Copy share link" })).toBeVisible();

    // The server holds exactly the hash the browser computed.
    const pub = await page.request.get(`/v1/protections/${id}`);
    expect(pub.status()).toBe(200);
    const protection = await pub.json();
    expect(protection.content_hash).toBe(file.hash);
    expect(protection.share_url).toBe(shareUrl);
    expect(protection.visibility).toBe("private");
    const mine = await page.request.get("/v1/consumer/protections", { headers: { "X-API-Key": creator.apiKey } });
    expect((await mine.json()).total).toBe(1);

    // The QR code is a real, decoded image.
    const qr = c.getByRole("img", { name: "QR code for the share link" });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    // The downloaded proof bundle verifies against the log key, and proves this hash.
    const [download] = await Promise.all([page.waitForEvent("download"), c.getByRole("button", { name: "Download proof bundle" }).click()]);
    expect(download.suggestedFilename()).toBe(`hallmark-proof-${id}.json`);
    const bundle = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    expect(bundle.attestation.payload.content_hash).toBe(`sha256:${file.hash}`);
    expect(bundle.attestation.payload.protection_id).toBe(id);
    const result = verifyProofBundle(bundle, { logPublicKey: await logKeyPem(page) });
    expect(result.ok, JSON.stringify(result.checks)).toBe(true);
    // A bundle altered by one hex digit does not.
    const forged = structuredClone(bundle);
    forged.attestation.payload.content_hash = `sha256:${file.hash.slice(0, -1)}${file.hash.endsWith("0") ? "1" : "0"}`;
    expect(verifyProofBundle(forged, { logPublicKey: await logKeyPem(page) }).ok).toBe(false);

    await checkPageQuality(page, testInfo, "protect-result");
  });

  test("several files at once, Protect all; the list shows the newest first and filters", async ({ page, request }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard/protections");
    await expect(page.getByText("Nothing protected yet")).toBeVisible();
    await expect(page.getByRole("link", { name: "Protect your first file" })).toHaveAttribute("href", "/dashboard");

    await page.goto("/dashboard");
    const tag = randomUUID().slice(0, 6);
    const notes = makeFile(testInfo, `notes-${tag}.txt`);
    const art = makeFile(testInfo, `sketch-${tag}.png`);
    const data = makeFile(testInfo, `table-${tag}.csv`);
    await page.getByLabel("Choose files").setInputFiles([notes.path, art.path, data.path]);
    for (const f of [notes, art, data]) await expect(card(page, f.name).getByText(f.hash, { exact: true })).toBeVisible();
    await expect(card(page, art.name).getByLabel("Category")).toHaveValue("digital-art");
    await expect(card(page, data.name).getByLabel("Category")).toHaveValue("dataset");

    // The sketch goes on the portfolio; the table gets its own title and is removed before minting.
    await card(page, art.name).getByRole("radio", { name: "Public", exact: true }).check();
    await card(page, art.name).getByLabel("Title").fill(`Sketch ${tag}`);
    await card(page, data.name)
      .getByRole("button", { name: `Remove ${data.name} from this list` })
      .click();
    await expect(card(page, data.name)).toHaveCount(0);

    await page.getByRole("button", { name: "Protect all" }).click();
    for (const f of [notes, art]) await expect(card(page, f.name).getByRole("heading", { name: "Protected" })).toBeVisible();
    const notesId = (await resultLinks(card(page, notes.name))).id;
    const artId = (await resultLinks(card(page, art.name))).id;
    expect(notesId).not.toBe(artId);
    await expect(page.getByRole("button", { name: "Protect all" })).toHaveCount(0);

    // Minted in list order, so the sketch is the newest and comes first.
    await page.getByRole("link", { name: "Your protections" }).click();
    await expect(page).toHaveURL(/\/dashboard\/protections$/);
    const list = page.getByRole("list", { name: "Protections, newest first" });
    const rows = list.getByRole("article");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAccessibleName(`Sketch ${tag}`);
    await expect(rows.nth(1)).toHaveAccessibleName(`notes-${tag}`);
    const first = rows.nth(0);
    await expect(first.getByText("Public", { exact: true })).toBeVisible();
    await expect(first.getByText("Digital art", { exact: true })).toBeVisible();
    await expect(first.getByText(`${art.hash.slice(0, 10)}…${art.hash.slice(-6)}`)).toBeVisible();
    await expect(first.getByRole("link", { name: "Verify" })).toHaveAttribute("href", new RegExp(`/verify/${artId}$`));
    await expect(first.getByRole("link", { name: "Share" })).toHaveAttribute("href", new RegExp(`/share/${artId}$`));
    await expect(rows.nth(1).getByText("Private", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "2 protections" })).toBeVisible();

    // Usage: two of the Creator plan's 500.
    const meter = page.getByRole("meter", { name: "Protections used this month" });
    await expect(meter).toHaveAttribute("aria-valuenow", "2");
    await expect(meter).toHaveAttribute("aria-valuemax", "500");
    await expect(page.getByText("of 500 protections used")).toBeVisible();

    // Making the private one public says what it publishes, for good, and asks for the current
    // password (missing or wrong: said at the field, and it stays private); making it private
    // again says what stays. Each answer shows in the list, and on its verify page to a visitor.
    const notesRow = rows.nth(1);
    const notesPage = `/verify/${notesId}`;
    expect((await request.get(notesPage)).status()).toBe(404);
    await notesRow.getByRole("button", { name: `Make public notes-${tag}` }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toHaveAccessibleName(`Make “notes-${tag}” public?`);
    await expect(dialog).toContainText("the opening of its sealed entry in the public log");
    await expect(dialog).toContainText("That opening is published for good");
    const password = dialog.getByLabel("Current password");
    await expect(password).toBeFocused();
    await expect(password).toHaveAccessibleDescription("This cannot be undone, so we ask for your password.");
    await dialog.getByRole("button", { name: "Make public" }).click();
    await expect(password).toHaveAccessibleDescription("Enter your current password.");
    await password.fill("not my password");
    await dialog.getByRole("button", { name: "Make public" }).click();
    await expect(password).toHaveAccessibleDescription("Is not your current password");
    await expect(password).toBeFocused();
    await checkPageQuality(page, testInfo, "protections-make-public");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(notesRow.getByText("Private", { exact: true })).toBeVisible();
    expect((await request.get(notesPage)).status()).toBe(404);
    // Opened again, the dialog starts clean; with the password, the protection is public.
    await notesRow.getByRole("button", { name: `Make public notes-${tag}` }).click();
    await expect(password).toHaveValue("");
    await expect(password).toHaveAccessibleDescription("This cannot be undone, so we ask for your password.");
    await password.fill(creator.password);
    await dialog.getByRole("button", { name: "Make public" }).click();
    await expect(dialog).toBeHidden();
    await expect(notesRow.getByText("Public", { exact: true })).toBeVisible();
    expect((await request.get(notesPage)).status()).toBe(200);
    // Making it private needs no password.
    await notesRow.getByRole("button", { name: `Make private notes-${tag}` }).click();
    await expect(dialog).toContainText("its log entry stays sealed");
    await expect(dialog.getByLabel("Current password")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Make private" }).click();
    await expect(notesRow.getByText("Private", { exact: true })).toBeVisible();
    expect((await request.get(notesPage)).status()).toBe(404);

    // Filters, kept in the URL.
    await page.getByLabel("Visibility").selectOption("public");
    await expect(page).toHaveURL(/[?&]visibility=public/);
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toHaveAccessibleName(`Sketch ${tag}`);
    await page.getByLabel("Visibility").selectOption("private");
    await expect(page).toHaveURL(/[?&]visibility=private/);
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toHaveAccessibleName(`notes-${tag}`);
    await page.getByLabel("Category").selectOption("digital-art");
    await expect(page).toHaveURL(/category=digital-art/);
    await expect(page.getByText("No protections match these filters")).toBeVisible();
    await checkPageQuality(page, testInfo, "protections-no-match");

    // A link with filters opens filtered.
    await page.goto("/dashboard/protections?category=writing");
    await expect(page.getByLabel("Category")).toHaveValue("writing");
    await expect(page.getByLabel("Visibility")).toHaveValue("");
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toHaveAccessibleName(`notes-${tag}`);
    await page.getByLabel("Category").selectOption("");
    await expect(page).toHaveURL(/\/dashboard\/protections$/);
    await expect(rows).toHaveCount(2);
    await checkPageQuality(page, testInfo, "protections");
  });

  test("Load more pages through the list with the cursor", async ({ page }) => {
    const creator = await seedConsumer({ plan: "pro" });
    // 23 protections through the REST API (the same mint), so the list has two pages of 20.
    for (let i = 0; i < 23; i++) {
      const res = await page.request.post("/v1/consumer/mint", {
        headers: { "X-API-Key": creator.apiKey },
        data: {
          content_hash: createHash("sha256").update(`item ${i} ${randomUUID()}`).digest("hex"),
          title: `Item ${String(i).padStart(2, "0")}`,
        },
      });
      expect(res.status()).toBe(201);
    }
    await logIn(page, creator);
    await page.goto("/dashboard/protections");
    const rows = page.getByRole("list", { name: "Protections, newest first" }).getByRole("article");
    await expect(rows).toHaveCount(20);
    await expect(rows.nth(0)).toHaveAccessibleName("Item 22");
    await expect(page.getByText("Showing 20 of 23")).toBeVisible();
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(23);
    await expect(rows.nth(22)).toHaveAccessibleName("Item 00");
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    // Unlimited plan: a count, no meter.
    await expect(page.getByText("protections — unlimited on Pro")).toBeVisible();
  });

  test("a file dropped on the drop zone is hashed", async ({ page }) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard");
    const text = `dropped ${randomUUID()}\n`;
    const name = `dropped-${randomUUID().slice(0, 6)}.txt`;
    const dataTransfer = await page.evaluateHandle(
      ([t, n]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], n, { type: "text/plain" }));
        return dt;
      },
      [text, name] as const,
    );
    await page.getByText("Drop files here to protect them").dispatchEvent("drop", { dataTransfer });
    await expect(card(page, name).getByText(createHash("sha256").update(text).digest("hex"), { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name })).toHaveCount(1);
  });

  test("hashes a 64 MiB file in chunks and gets the same hash as Node", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    const big = makeSparseFile(testInfo, `footage-${randomUUID().slice(0, 6)}.mp4`, 64 * 1024 * 1024);
    const hash = await sha256OfFile(big.path);
    await logIn(page, creator);
    await page.goto("/dashboard");
    await page.getByLabel("Choose files").setInputFiles(big.path);
    const c = card(page, big.name);
    await expect(c.getByText(hash, { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(c.getByLabel("Category")).toHaveValue("media");
    await expect(c.getByText(/67\.1 MB/).first()).toBeVisible();
    fs.rmSync(big.path);
  });

  test("cancels hashing a large file", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    // 2 GiB, sparse: hashing it takes seconds, long enough to cancel half-way.
    const huge = makeSparseFile(testInfo, `archive-${randomUUID().slice(0, 6)}.bin`, 2 * 1024 * 1024 * 1024);
    await logIn(page, creator);
    await page.goto("/dashboard");
    await page.getByLabel("Choose files").setInputFiles(huge.path);
    const c = card(page, huge.name);
    const bar = c.getByRole("progressbar", { name: `Hashing ${huge.name}` });
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(c.getByText(/MB\/s/)).toBeVisible();
    await c.getByRole("button", { name: `Cancel hashing ${huge.name}` }).click();
    await expect(c.getByText("Hashing cancelled.")).toBeVisible();
    await expect(bar).toHaveCount(0);
    await expect(c.getByText(/^[0-9a-f]{64}$/)).toHaveCount(0);
    // It stays cancelled: no hash turns up later.
    await page.waitForTimeout(1500);
    await expect(c.getByText(/^[0-9a-f]{64}$/)).toHaveCount(0);
    await expect(c.getByRole("button", { name: "Hash again" })).toBeVisible();
    await c.getByRole("button", { name: `Remove ${huge.name} from this list` }).click();
    await expect(c).toHaveCount(0);
    fs.rmSync(huge.path);
  });

  test("a mint over the plan's monthly quota says so on the file", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "free" });
    for (let i = 0; i < 50; i++) {
      const res = await page.request.post("/v1/consumer/mint", {
        headers: { "X-API-Key": creator.apiKey },
        data: { content_hash: createHash("sha256").update(`quota ${i} ${randomUUID()}`).digest("hex") },
      });
      expect(res.status()).toBe(201);
    }
    await logIn(page, creator);
    await page.goto("/dashboard");
    await expect(page.getByText("protections left this month on the Free plan")).toBeVisible();
    const file = makeFile(testInfo, `late-${randomUUID().slice(0, 6)}.txt`);
    await page.getByLabel("Choose files").setInputFiles(file.path);
    const c = card(page, file.name);
    await expect(c.getByText(file.hash, { exact: true })).toBeVisible();
    await c.getByRole("button", { name: "Protect", exact: true }).click();
    const alert = c.getByRole("alert");
    await expect(alert).toContainText("Monthly quota reached");
    await expect(alert).toContainText("The free plan allows 50 protections per calendar month");
    await expect(c.getByRole("button", { name: "Try again" })).toBeVisible();
  });

  test("both pages on a phone @phone", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard/protections");
    await expect(page.getByText("Nothing protected yet")).toBeVisible();
    await checkPageQuality(page, testInfo, "protections-empty");

    await page.goto("/dashboard");
    await checkPageQuality(page, testInfo, "protect-empty");
    const file = makeFile(testInfo, `a-rather-long-file-name-for-a-small-screen-${randomUUID()}.txt`);
    await page.getByLabel("Choose files").setInputFiles(file.path);
    const c = card(page, file.name);
    await expect(c.getByText(file.hash, { exact: true })).toBeVisible();
    await checkPageQuality(page, testInfo, "protect-form");
    await c.getByRole("button", { name: "Protect", exact: true }).click();
    await expect(c.getByRole("heading", { name: "Protected" })).toBeVisible();
    await expect(c.getByRole("img", { name: "QR code for the share link" })).toBeVisible();
    await checkPageQuality(page, testInfo, "protect-result");

    await page.goto("/dashboard/protections");
    const rows = page.getByRole("list", { name: "Protections, newest first" }).getByRole("article");
    await expect(rows).toHaveCount(1);
    await checkPageQuality(page, testInfo, "protections-list");
    // The make-public dialog, with its password refused at the field.
    await rows
      .first()
      .getByRole("button", { name: /^Make public / })
      .click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel("Current password").fill("not my password");
    await dialog.getByRole("button", { name: "Make public" }).click();
    await expect(dialog.getByLabel("Current password")).toHaveAccessibleDescription("Is not your current password");
    await checkPageQuality(page, testInfo, "protections-make-public");
  });
});
