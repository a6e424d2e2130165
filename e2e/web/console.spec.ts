// The organisation console (API keys, issuers and their signing keys) and a creator's own API
// keys page, driven as a person would: the keys made here are then used over REST.
import { ORGANIZATION_SCOPES } from "../../lib/scopes";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test, checkPageQuality, logIn, mailWithSubject } from "./support";
import { seedConsumer, seedOrg } from "../accounts";

const listKeys = (request: APIRequestContext, key: string) => request.get("/v1/api-keys", { headers: { "X-API-Key": key } });

const NEW_KEY_NOTICE = "A new API key was added to your Hallmark account";
const WHY_PASSWORD = "A key outlasts this session, so we ask for your password.";

/** Opens the create dialog, fills it (the current password last), submits, and returns the secret shown once. */
async function createKey(page: Page, opts: { name: string; scopes: string[]; password: string; rate?: string; quota?: string }) {
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await dialog.getByLabel("Name").fill(opts.name);
  for (const s of opts.scopes) await dialog.getByRole("checkbox", { name: s, exact: true }).check();
  if (opts.rate !== undefined) await dialog.getByLabel("Requests per minute").fill(opts.rate);
  if (opts.quota !== undefined) await dialog.getByLabel("Daily quota").fill(opts.quota);
  await dialog.getByLabel("Current password").fill(opts.password);
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog).toBeHidden();
  const panel = page.getByRole("region", { name: `Your new key “${opts.name}”` });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText("Copy this key now — it will not be shown again");
  await expect(panel.getByRole("button", { name: "Copy key" })).toBeVisible();
  return (await panel.getByTestId("new-api-key").innerText()).trim();
}

const keyRow = (page: Page, name: string) => page.getByRole("row", { name: new RegExp(`^${name}\\b`) });

test.describe("organisation console", () => {
  test("a visitor opening /console is sent to log in, and comes back to the console", async ({ page }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await page.goto("/console");
    await expect(page).toHaveURL(/\/login\?next=%2Fconsole$/);
    await page.getByLabel("E-mail").fill(org.email);
    await page.getByLabel("Password").fill(org.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/console$/);
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  });

  test("an owner logging in lands on the console; the dashboard of creators sends them there too", async ({ page }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org, /\/console$/);
    await expect(page.getByText(`${org.name} · Organisation console`)).toBeVisible();
    await page.goto("/dashboard/api-keys");
    await expect(page).toHaveURL(/\/console$/);
  });

  test("create a key: shown once, works over REST with its scope, revoke after confirming, then 401", async ({ page, request }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.goto("/console");

    // The key the operator made with the organisation is listed, masked.
    const bootstrap = keyRow(page, "bootstrap");
    await expect(bootstrap).toContainText(`${org.apiKey.slice(0, 16)}…`);
    await expect(bootstrap).toContainText("ACTIVE");
    expect(await page.content()).not.toContain(org.apiKey);

    // The form offers the owner's scopes, each explained, and nothing of a consumer's.
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    await expect(dialog.getByRole("checkbox")).toHaveCount(ORGANIZATION_SCOPES.length);
    await expect(dialog.getByRole("checkbox", { name: "attestations:write", exact: true })).toHaveAccessibleDescription(
      /Sign attestations/,
    );
    await expect(dialog.getByRole("checkbox", { name: "protections:write" })).toHaveCount(0);
    await expect(dialog.getByLabel("Requests per minute")).toHaveValue("600");
    await expect(dialog.getByLabel("Daily quota")).toHaveValue("100000");
    // The current password is asked, and the dialog says why.
    const password = dialog.getByLabel("Current password");
    await expect(password).toHaveAttribute("type", "password");
    await expect(password).toHaveAccessibleDescription(WHY_PASSWORD);

    // Nothing chosen: told at the fields, nothing sent.
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByLabel("Name")).toHaveAccessibleDescription("Give the key a name, so you know later what uses it.");
    await expect(dialog.getByText("Choose at least one scope.")).toBeVisible();
    await expect(password).toHaveAccessibleDescription("Enter your current password.");

    // The server's own validation shows at its field.
    await dialog.getByLabel("Name").fill("too much");
    await dialog.getByRole("checkbox", { name: "api_keys:read", exact: true }).check();
    await dialog.getByLabel("Daily quota").fill("5000000000");
    await password.fill(org.password);
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByLabel("Daily quota")).toHaveAccessibleDescription(/1000000000/);
    await expect(dialog.getByLabel("Daily quota")).toBeFocused();

    // A wrong password: the server's 403 shows at the password field, and no key is made.
    await dialog.getByLabel("Daily quota").fill("500");
    await password.fill("not my password");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(password).toHaveAccessibleDescription("Is not your current password");
    await expect(password).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(keyRow(page, "too much")).toHaveCount(0);
    const before = (await (await listKeys(request, org.apiKey)).json()) as Array<{ name: string }>;
    expect(before.map((k) => k.name)).not.toContain("too much");

    // Create: one scope, own limits.
    const secret = await createKey(page, {
      name: "CMS reader",
      scopes: ["api_keys:read"],
      password: org.password,
      rate: "30",
      quota: "500",
    });
    expect(secret).toMatch(/^hm_live_/);
    await expect(page.getByText(secret)).toHaveCount(1);
    const row = keyRow(page, "CMS reader");
    await expect(row).toContainText(`${secret.slice(0, 16)}…`);
    await expect(row).toContainText("ACTIVE");
    await expect(row).toContainText("api_keys:read");
    await expect(row).toContainText("30/min · 500/day");

    // The owner's address is told of the new key: its name, its prefix, and the browser that made it.
    const notice = await mailWithSubject(org.email, NEW_KEY_NOTICE);
    expect(notice.text).toContain("CMS reader");
    expect(notice.text).toContain(secret.slice(0, 16));
    expect(notice.text).toContain("Chrome");

    // It works, within its scope: it may list keys, and the list never carries secrets.
    const listed = await listKeys(request, secret);
    expect(listed.status()).toBe(200);
    const keys = (await listed.json()) as Array<{ name: string; scopes: string[]; rate_limit_per_minute: number; daily_quota: number }>;
    expect(keys.find((k) => k.name === "CMS reader")).toMatchObject({
      scopes: ["api_keys:read"],
      rate_limit_per_minute: 30,
      daily_quota: 500,
    });
    expect(JSON.stringify(keys)).not.toContain(secret);
    // A key without api_keys:read is refused the same list.
    const signer = await createKey(page, { name: "Signer", scopes: ["attestations:write"], password: org.password });
    expect((await listKeys(request, signer)).status()).toBe(403);
    await expect(page.getByText(secret)).toHaveCount(0);

    // Never shown again.
    await page.reload();
    await expect(keyRow(page, "CMS reader")).toBeVisible();
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(signer);

    // Cancel leaves it alone.
    await keyRow(page, "CMS reader").getByRole("button", { name: "Revoke CMS reader" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Revoke “CMS reader”?" });
    await expect(confirm).toBeVisible();
    await expect(confirm).toHaveAttribute("aria-modal", "true");
    await expect(confirm).toContainText("cannot be undone");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(keyRow(page, "CMS reader")).toContainText("ACTIVE");
    expect((await listKeys(request, secret)).status()).toBe(200);

    // Revoke: the row says so, and the key is dead at once.
    await keyRow(page, "CMS reader").getByRole("button", { name: "Revoke CMS reader" }).click();
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(confirm).toBeHidden();
    await expect(keyRow(page, "CMS reader")).toContainText("REVOKED");
    await expect(keyRow(page, "CMS reader").getByRole("button", { name: /Revoke/ })).toHaveCount(0);
    expect((await listKeys(request, secret)).status()).toBe(401);
    // The others are untouched.
    await expect(keyRow(page, "bootstrap")).toContainText("ACTIVE");
    await page.reload();
    await expect(keyRow(page, "CMS reader")).toContainText("REVOKED");
  });

  test("the revoke confirmation works from the keyboard alone", async ({ page, request }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.goto("/console");
    const secret = await createKey(page, { name: "Keyboard", scopes: ["api_keys:read"], password: org.password });
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    const revoke = keyRow(page, "Keyboard").getByRole("button", { name: "Revoke Keyboard" });
    await revoke.focus();
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("alertdialog", { name: "Revoke “Keyboard”?" });
    await expect(confirm).toBeVisible();
    // Focus moves in, onto the safe choice.
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    // Escape cancels and gives focus back.
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await expect(revoke).toBeFocused();
    await expect(keyRow(page, "Keyboard")).toContainText("ACTIVE");
    expect((await listKeys(request, secret)).status()).toBe(200);

    // Enter opens it again, Tab reaches "Revoke key", Enter revokes.
    await page.keyboard.press("Enter");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(confirm.getByRole("button", { name: "Revoke key" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(keyRow(page, "Keyboard")).toContainText("REVOKED");
    // Focus is not lost to the page's start: it lands on the list.
    await expect(page.getByRole("heading", { name: `Keys of ${org.name}` })).toBeFocused();
    expect((await listKeys(request, secret)).status()).toBe(401);
  });

  test("issuers: create one, see its signing key, rotate it", async ({ page, request }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.goto("/console/issuers");
    await expect(page.getByRole("heading", { level: 1, name: "Issuers" })).toBeVisible();
    await expect(page.getByText("No issuers yet")).toBeVisible();

    await page.getByRole("button", { name: "Create issuer" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an issuer" });
    await expect(dialog.getByLabel("Name")).toBeFocused();
    await dialog.getByLabel("Name").fill("Daily Example");
    // The server checks the domain; its answer shows at the field.
    await dialog.getByLabel("Domain").fill("not a domain");
    await dialog.getByRole("button", { name: "Create issuer" }).click();
    await expect(dialog.getByLabel("Domain")).toHaveAccessibleDescription(/DNS host name/);
    const domain = `news-${Date.now()}.example.org`;
    await dialog.getByLabel("Domain").fill(domain);
    await dialog.getByRole("button", { name: "Create issuer" }).click();

    await expect(page).toHaveURL(/\/console\/issuers\/[0-9a-f-]{36}/);
    const issuerId = page.url().split("/").pop()!.split("?")[0]!;
    await expect(page.getByRole("heading", { level: 1, name: "Daily Example" })).toBeVisible();
    await expect(page.getByText(domain)).toBeVisible();
    await expect(page.getByText("PENDING")).toBeVisible();
    const keys = page.getByRole("list", { name: /Signing keys/ }).getByRole("listitem");
    await expect(keys).toHaveCount(1);
    await expect(keys.first()).toContainText("ACTIVE");
    await expect(keys.first()).toContainText("Ed25519");

    // The page shows what the REST API publishes for this issuer.
    const rest = await request.get(`/v1/issuers/${issuerId}`, { headers: { "X-API-Key": org.apiKey } });
    expect(rest.status()).toBe(200);
    const issuer = (await rest.json()) as { domain: string; keys: Array<{ kid: string; public_key: string }> };
    expect(issuer.domain).toBe(domain);
    expect(issuer.keys).toHaveLength(1);
    const first = issuer.keys[0]!;
    await expect(keys.first()).toContainText(first.kid);
    const pem = keys.first().locator("pre");
    await expect(pem).toBeHidden();
    await keys.first().getByText("Public key (PEM)").click();
    await expect(pem).toBeVisible();
    await expect(pem).toHaveText(first.public_key.trim());
    await expect(keys.first().getByRole("button", { name: "Copy public key" })).toBeVisible();

    // Rotation asks first, and says the old key keeps verifying.
    await page.getByRole("button", { name: "Rotate key" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Rotate the signing key?" });
    await expect(confirm).toContainText("valid for verifying everything it already signed");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(keys).toHaveCount(1);
    await page.getByRole("button", { name: "Rotate key" }).click();
    await confirm.getByRole("button", { name: "Rotate key" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Key rotated")).toBeVisible();
    await expect(keys).toHaveCount(2);
    await expect(keys.nth(0)).toContainText("ACTIVE");
    await expect(keys.nth(1)).toContainText("RETIRED");
    await expect(keys.nth(1)).toContainText(first.kid);
    await expect(keys.nth(0)).not.toContainText(first.kid);

    // Still two after a reload (it was the server, not the page), and the list shows the issuer.
    await page.reload();
    await expect(keys).toHaveCount(2);
    await page.getByRole("link", { name: "Issuers" }).first().click();
    await expect(page).toHaveURL(/\/console\/issuers$/);
    const row = page.getByRole("row", { name: /Daily Example/ });
    await expect(row).toContainText(domain);
    await expect(row).toContainText("PENDING");
    await expect(row).toContainText("BASIC");
    await row.getByRole("link", { name: "Daily Example" }).click();
    await expect(page).toHaveURL(new RegExp(`/console/issuers/${issuerId}$`));
  });

  test("an unknown issuer is not found", async ({ page }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    const res = await page.goto("/console/issuers/01900000-0000-7000-8000-000000000000");
    expect(res?.status()).toBe(404);
    await expect(page.getByText(/could not be found/i)).toBeVisible();
  });
});

test.describe("a creator's API keys", () => {
  test("a consumer manages their own keys with consumer scopes only, and cannot open the console", async ({ page, request }) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard/api-keys");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expect(keyRow(page, "default")).toContainText(`${creator.apiKey.slice(0, 16)}…`);

    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    const offered = await dialog
      .getByRole("checkbox")
      .evaluateAll((els) => els.map((el) => document.querySelector(`label[for="${el.id}"]`)?.textContent?.trim()));
    expect(offered.sort()).toEqual(["api_keys:read", "api_keys:write", "protections:read", "protections:write"]);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    const secret = await createKey(page, { name: "Backup script", scopes: ["protections:write"], password: creator.password });
    expect(secret).toMatch(/^hm_live_/);
    await expect(keyRow(page, "Backup script")).toContainText("protections:write");
    // Its scope is all it holds: listing keys needs api_keys:read.
    expect((await listKeys(request, secret)).status()).toBe(403);
    // The creator's address is told of it.
    const notice = await mailWithSubject(creator.email, NEW_KEY_NOTICE);
    expect(notice.text).toContain("Backup script");
    expect(notice.text).toContain(secret.slice(0, 16));

    // The console is not theirs.
    await page.goto("/console");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/console/issuers");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("wrong passwords in the create dialog: each at its field, then a wait, and no key is made", async ({ page, request }) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard/api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    await dialog.getByLabel("Name").fill("Guessed");
    await dialog.getByRole("checkbox", { name: "protections:read", exact: true }).check();
    const password = dialog.getByLabel("Current password");
    // Five wrong ones are each refused at the field (the account's budget of wrong current passwords).
    for (let i = 0; i < 5; i++) {
      await password.fill(`wrong password ${i}`);
      await dialog.getByRole("button", { name: "Create key" }).click();
      await expect(password).toHaveAccessibleDescription("Is not your current password");
      await expect(dialog.getByRole("button", { name: "Create key" })).toBeEnabled();
    }
    // Past them, even the right one waits: the dialog says so, with how long.
    await password.fill(creator.password);
    await dialog.getByRole("button", { name: "Create key" }).click();
    const refused = dialog.getByRole("alert").filter({ hasText: "The key was not created" });
    await expect(refused).toContainText(/Too many .*try again in \d+/i);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(keyRow(page, "Guessed")).toHaveCount(0);
    const keys = (await (await listKeys(request, creator.apiKey)).json()) as Array<{ name: string }>;
    expect(keys.map((k) => k.name)).not.toContain("Guessed");
  });
});

test.describe("page quality", () => {
  test("the console, its issuers and an issuer page pass the checks @phone", async ({ page }, testInfo) => {
    test.setTimeout(120_000); // six pages and dialogs, each through axe and a full-page screenshot
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.goto("/console");
    await createKey(page, {
      name: "Publishing pipeline with a long descriptive name",
      scopes: ["attestations:write", "attestations:read"],
      password: org.password,
    });
    await expect(keyRowOrCard(page, "Publishing pipeline with a long descriptive name")).toBeVisible();
    await checkPageQuality(page, testInfo, "console");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    await expect(dialog).toBeVisible();
    await checkPageQuality(page, testInfo, "console-create-dialog");
    await dialog.getByLabel("Name").fill("Refused");
    await dialog.getByRole("checkbox", { name: "attestations:read", exact: true }).check();
    await dialog.getByLabel("Current password").fill("not my password");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByLabel("Current password")).toHaveAccessibleDescription("Is not your current password");
    await checkPageQuality(page, testInfo, "console-create-dialog-wrong-password");
    await page.keyboard.press("Escape");

    await page.goto("/console/issuers");
    await expect(page.getByText("No issuers yet")).toBeVisible();
    await checkPageQuality(page, testInfo, "console-issuers-empty");
    await page.getByRole("button", { name: "Create issuer" }).click();
    await page.getByLabel("Name").fill("The Example Gazette");
    await page.getByLabel("Domain").fill(`gazette-${Date.now()}.example.org`);
    await page.getByRole("dialog").getByRole("button", { name: "Create issuer" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "The Example Gazette" })).toBeVisible();
    await page.getByText("Public key (PEM)").click();
    await checkPageQuality(page, testInfo, "console-issuer");
    await page.getByRole("button", { name: "Rotate key" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await checkPageQuality(page, testInfo, "console-issuer-rotate");
    await page.keyboard.press("Escape");
    await page.goto("/console/issuers");
    await expect(page.getByRole("link", { name: "The Example Gazette" })).toBeVisible();
    await checkPageQuality(page, testInfo, "console-issuers");
  });

  test("a creator's API keys page passes the checks @phone", async ({ page }, testInfo) => {
    const creator = await seedConsumer({ plan: "creator" });
    await logIn(page, creator);
    await page.goto("/dashboard/api-keys");
    await expect(keyRowOrCard(page, "default")).toBeVisible();
    await checkPageQuality(page, testInfo, "dashboard-api-keys");
    await createKey(page, { name: "Lightroom export", scopes: ["protections:write"], password: creator.password });
    await checkPageQuality(page, testInfo, "dashboard-api-keys-new-secret");
  });
});

/** The key's row on a wide screen, its card on a phone. */
function keyRowOrCard(page: Page, name: string) {
  return page
    .getByRole("row", { name: new RegExp(`^${name}\\b`) })
    .or(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) }));
}
