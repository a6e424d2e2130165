// The account pages: forgotten passwords (/forgot-password, the mailed /reset-password link) and
// /dashboard/account (name, e-mail change, password change, sessions, deletion), as a person uses
// them, with the mail read from the suite's SMTP catcher.
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { seedConsumer, seedOrg } from "../accounts";
import { mint, tempDir } from "./visitor-fixtures";
import { checkPageQuality, expect, logIn, mailWhere, mailWithSubject, test, uniqueEmail, verificationLink, waitForMail } from "./support";

const RESET_LINK = /(\S+\/reset-password\?token=[A-Za-z0-9_-]+)/;

/** The newest reset mail to `address`, waited for. */
const resetMail = (address: string) => mailWhere(address, "a reset link", (m) => RESET_LINK.test(m.text ?? ""));

/** The reset link of a message (its plain-text part). */
function resetLink(mail: ParsedMail): string {
  const match = RESET_LINK.exec(mail.text ?? "");
  if (!match) throw new Error(`no reset link in: ${mail.subject}`);
  return match[1]!;
}

/** Tries the login form and expects it to refuse. */
async function expectLoginRefused(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The e-mail address or the password is wrong." })).toBeVisible();
}

/** A second browser, logged in to the same account: the "other session" the account page ends. */
async function otherBrowser(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, account);
  return { context, page };
}

/** A page that needs a session sends a browser whose session has ended to log in. */
async function expectLoggedOut(page: Page) {
  await page.goto("/dashboard/protections");
  await expect(page).toHaveURL(/\/login\?next=/);
}

/** Makes another API key with an existing one (a key needs no password), and returns its secret. */
async function addKey(request: APIRequestContext, apiKey: string, name: string): Promise<string> {
  const res = await request.post("/v1/api-keys", { headers: { "X-API-Key": apiKey }, data: { name, scopes: ["api_keys:read"] } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** The status a request authenticated with `apiKey` gets: 200 while the key is active, 401 once revoked. */
const keyStatus = async (request: APIRequestContext, apiKey: string) =>
  (await request.get("/v1/api-keys", { headers: { "X-API-Key": apiKey } })).status();

/**
 * Asks for a reset link over REST, from a client address of its own (the suite stands where a
 * proxy would), so the reset requests of other tests do not spend its budget; returns the link.
 */
async function mailedResetLink(request: APIRequestContext, email: string): Promise<string> {
  const client = `10.31.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const res = await request.post("/v1/consumer/password-reset", { headers: { "x-forwarded-for": client }, data: { email } });
  expect(res.status()).toBe(202);
  return resetLink(await resetMail(email));
}

const section = (page: Page, name: string) => page.getByRole("region", { name });
const revokedKeys = (page: Page) => page.getByRole("list", { name: "API keys the new password revokes" }).getByRole("listitem");
const sessionItems = (sessions: Locator) => sessions.getByRole("list", { name: "Sessions, newest first" }).getByRole("listitem");

test("forgot password: the login page's link, the mailed link, a new password, then log in with it", async ({ page, browser, request }) => {
  const account = await seedConsumer({ plan: "free" });
  const script = await addKey(request, account.apiKey, "Nightly backup");
  const elsewhere = await otherBrowser(browser, account);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account exists for ${account.email}, we sent it a link`);
  await expect(page.getByRole("status")).toContainText("works once and expires in 30 minutes");
  // An address without an account gets the very same answer.
  await page.getByRole("button", { name: "Use another address" }).click();
  const stranger = uniqueEmail("nobody");
  await page.getByLabel("E-mail").fill(stranger);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account exists for ${stranger}, we sent it a link`);

  const mail = await resetMail(account.email);
  // The mail itself says what a reset ends.
  expect(mail.text).toMatch(/session/i);
  expect(mail.text).toMatch(/API key/i);
  const link = resetLink(mail);
  // Opening the page uses nothing up (mail scanners pre-open links): twice, then the form works.
  await page.goto(link);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  // It names the keys the reset revokes, with their prefixes, before anything is done.
  await expect(page.getByText("Setting a new password ends every session of your account and revokes these 2 API keys")).toBeVisible();
  await expect(revokedKeys(page)).toHaveCount(2);
  await expect(revokedKeys(page).filter({ hasText: "Nightly backup" })).toContainText(`${script.slice(0, 16)}…`);
  await expect(revokedKeys(page).filter({ hasText: "default" })).toContainText(`${account.apiKey.slice(0, 16)}…`);
  await expect(revokedKeys(page).first()).toContainText(/created \d{1,2} \w{3} \d{4}/);
  expect(await keyStatus(request, script)).toBe(200);
  const newPassword = "a brand new passphrase";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill("a different passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("The two passwords differ")).toBeVisible();
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Set the new password" }).click();
  const done = page.getByRole("status").filter({ hasText: "Your password is changed" });
  await expect(done).toContainText("1 session ended and 2 API keys were revoked.");
  await expect(done).toContainText(`as ${account.email} with the new password`);
  await expect(page.getByRole("link", { name: "Log in" }).last()).toHaveAttribute("href", "/login");
  // Both keys are dead at once.
  expect(await keyStatus(request, script)).toBe(401);
  expect(await keyStatus(request, account.apiKey)).toBe(401);

  // The link works once: opened again, it says so at once, and where to get another.
  await page.goto(link);
  const refused = page.getByRole("alert").filter({ hasText: "This link does not work" });
  await expect(refused).toContainText("invalid, was already used, or has expired");
  await expect(refused.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);

  // The reset ended the session opened before it; the old password is refused, the new one works.
  await expectLoggedOut(elsewhere.page);
  await expectLoginRefused(page, account.email, account.password);
  await logIn(page, { email: account.email, password: newPassword });
  await elsewhere.context.close();
});

test("the account page: rename, sessions, password change, e-mail change, then deletion", async ({ page, browser, request }) => {
  test.slow(); // two browsers, five mails, a dozen page loads
  const account = await seedConsumer({ plan: "creator", name: "Grace Hopper" });
  const work = await mint(account.apiKey, tempDir(), { title: "Compiler notes", visibility: "public", fileName: "notes.txt" });
  await logIn(page, account);
  const elsewhere = await otherBrowser(browser, account);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

  // Name.
  const name = section(page, "Name");
  await expect(name.getByLabel("Name")).toHaveValue("Grace Hopper");
  await name.getByLabel("Name").fill("  Rear Admiral Grace Hopper ");
  await name.getByRole("button", { name: "Save name" }).click();
  await expect(name.getByText("Saved: you are now Rear Admiral Grace Hopper.")).toBeVisible();
  await page.goto(work.share_url);
  await expect(page.getByText("Rear Admiral Grace Hopper").first()).toBeVisible();
  await page.goto("/dashboard/account");
  await expect(section(page, "Name").getByLabel("Name")).toHaveValue("Rear Admiral Grace Hopper");

  // Sessions: this one and the other browser's; end the other.
  let sessions = section(page, "Sessions");
  await expect(sessionItems(sessions)).toHaveCount(2);
  const current = sessionItems(sessions).filter({ hasText: "This session" });
  await expect(current).toHaveCount(1);
  await expect(current.getByRole("button", { name: "End session" })).toHaveCount(0);
  await expect(current).toContainText("From ");
  const other = sessionItems(sessions).filter({ hasNotText: "This session" });
  await other.getByRole("button", { name: "End session" }).click();
  await expect(sessions.getByText("The session is ended")).toBeVisible();
  await expect(sessionItems(sessions)).toHaveCount(1);
  await expect(sessions.getByText("This is your only open session.")).toBeVisible();
  await expectLoggedOut(elsewhere.page);

  // Password: the current one first (a wrong one is refused at its field), then the other session ends.
  await logIn(elsewhere.page, account);
  await page.reload();
  const password = section(page, "Password");
  const newPassword = "a changed passphrase";
  await password.getByLabel("Current password").fill("not my password");
  await password.getByLabel("New password").fill(newPassword);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByLabel("Current password")).toHaveAccessibleDescription("Is not your current password");
  await password.getByLabel("Current password").fill(account.password);
  await password.getByLabel("New password").fill(newPassword);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("1 other session ended; this one stays. Your API keys keep working.")).toBeVisible();
  expect(await keyStatus(request, account.apiKey)).toBe(200);
  await mailWithSubject(account.email, "Your Hallmark password was changed");
  sessions = section(page, "Sessions");
  await expect(sessionItems(sessions)).toHaveCount(1);
  await expectLoggedOut(elsewhere.page);
  await expectLoginRefused(elsewhere.page, account.email, account.password);

  // End every other session.
  await logIn(elsewhere.page, { email: account.email, password: newPassword });
  await page.reload();
  await expect(sessionItems(section(page, "Sessions"))).toHaveCount(2);
  await section(page, "Sessions").getByRole("button", { name: "End every other session" }).click();
  await expect(section(page, "Sessions").getByText("1 other session ended.")).toBeVisible();
  await expect(sessionItems(section(page, "Sessions"))).toHaveCount(1);
  await expectLoggedOut(elsewhere.page);

  // E-mail: the link goes to the new address, a notice to the old; confirmed, the new one logs in.
  const moved = uniqueEmail("moved");
  const email = section(page, "E-mail address");
  await expect(email).toContainText(`You log in with ${account.email}`);
  await email.getByLabel("New e-mail address").fill(moved);
  await email.getByLabel("Current password").fill(newPassword);
  await email.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(email.getByText(`If no other account uses ${moved}, we sent it a link`)).toBeVisible();
  const notice = await mailWithSubject(account.email, "Your Hallmark e-mail address is about to change");
  expect(notice.text).toContain(moved);
  await elsewhere.page.goto(verificationLink((await waitForMail(moved)).at(-1)!).link);
  await elsewhere.page.getByLabel("Your password", { exact: true }).fill(newPassword);
  await elsewhere.page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(elsewhere.page.getByText(`${moved} is confirmed: your account logs in with it from now on.`)).toBeVisible();
  await expectLoginRefused(elsewhere.page, account.email, newPassword);
  await logIn(elsewhere.page, { email: moved, password: newPassword });
  await page.reload();
  await expect(section(page, "E-mail address")).toContainText(`You log in with ${moved}`);

  // Delete: what goes and what stays, said before; the password and DELETE asked for.
  const deletion = section(page, "Delete your account");
  await expect(deletion).toContainText("What goes:");
  await expect(deletion).toContainText("title, description and file details");
  await expect(deletion).toContainText("What stays:");
  await expect(deletion).toContainText("its id, content hash and category, signed by a personal issuer that never carried your name");
  await deletion.getByLabel("Current password").fill(newPassword);
  await deletion.getByRole("button", { name: "Delete my account" }).click();
  await expect(deletion.getByLabel("Type DELETE to confirm")).toHaveAccessibleDescription("Type DELETE, in capitals, to confirm.");
  await deletion.getByLabel("Current password").fill("not my password");
  await deletion.getByLabel("Type DELETE to confirm").fill("DELETE");
  await deletion.getByRole("button", { name: "Delete my account" }).click();
  await expect(deletion.getByLabel("Current password")).toHaveAccessibleDescription("Is not your current password");
  await deletion.getByLabel("Current password").fill(newPassword);
  await deletion.getByRole("button", { name: "Delete my account" }).click();

  // Home, logged out in this browser (next-auth's cookie cleared) and the other.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"))).toBeUndefined();
  await expectLoggedOut(page);
  await expectLoggedOut(elsewhere.page);
  await expectLoginRefused(page, moved, newPassword);
  for (const url of [work.verify_url, work.share_url]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1, name: "Protection not found" })).toBeVisible();
  }
  await elsewhere.context.close();
});

test("changing the password can revoke every API key too, and says how many", async ({ page, browser, request }) => {
  const account = await seedConsumer({ plan: "creator" });
  const script = await addKey(request, account.apiKey, "Lightroom export");
  await logIn(page, account);
  const elsewhere = await otherBrowser(browser, account);
  await page.goto("/dashboard/account");
  const password = section(page, "Password");
  const revoke = password.getByRole("checkbox", { name: "Also revoke all my API keys" });
  await expect(revoke).not.toBeChecked();
  await expect(revoke).toHaveAccessibleDescription(/Every active key of your account stops working at once/);

  // A wrong password revokes nothing.
  await revoke.check();
  await password.getByLabel("Current password").fill("not my password");
  await password.getByLabel("New password").fill("a changed passphrase");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByLabel("Current password")).toHaveAccessibleDescription("Is not your current password");
  expect(await keyStatus(request, script)).toBe(200);

  await password.getByLabel("Current password").fill(account.password);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("1 other session ended; this one stays. 2 API keys revoked.")).toBeVisible();
  await expect(revoke).not.toBeChecked();
  expect(await keyStatus(request, script)).toBe(401);
  expect(await keyStatus(request, account.apiKey)).toBe(401);
  await expectLoggedOut(elsewhere.page);
  await mailWithSubject(account.email, "Your Hallmark password was changed");
  // The keys page shows them revoked; this session stays.
  await page.goto("/dashboard/api-keys");
  for (const name of ["default", "Lightroom export"]) {
    await expect(page.getByRole("row", { name: new RegExp(`^${name}\\b`) })).toContainText("REVOKED");
  }
  await elsewhere.context.close();
});

test("an organisation's owner reaches the account page from the console, without the deletion", async ({ page, request }) => {
  const org = await seedOrg({ owner: { name: "Ada Org-Owner" } });
  await logIn(page, org, /\/console/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText(`${org.name} · Organisation console`)).toBeVisible();
  await expect(section(page, "Name").getByLabel("Name")).toHaveValue("Ada Org-Owner");
  await expect(sessionItems(section(page, "Sessions"))).toHaveCount(1);
  await expect(section(page, "Delete your account")).toHaveCount(0);
  // The keys a password change may revoke are the organisation's.
  await expect(section(page, "Password").getByRole("checkbox", { name: "Also revoke all my API keys" })).toHaveAccessibleDescription(
    new RegExp(`Every active key of ${org.name} stops working at once`),
  );

  // A reset of the owner's password names the organisation's keys, and revokes them.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();
  await page.goto(await mailedResetLink(request, org.email));
  await expect(revokedKeys(page)).toHaveCount(1);
  await expect(revokedKeys(page).first()).toContainText("bootstrap");
  await expect(revokedKeys(page).first()).toContainText(`${org.apiKey.slice(0, 16)}…`);
  await page.getByLabel("New password", { exact: true }).fill("the owner's new passphrase");
  await page.getByLabel("Repeat the new password").fill("the owner's new passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("No session was open and 1 API key was revoked.")).toBeVisible();
  expect(await keyStatus(request, org.apiKey)).toBe(401);
});

test("a reset link of an account without active keys says none will be revoked", async ({ page, request }) => {
  const account = await seedConsumer({ plan: "free" });
  const own = (await (await request.get("/v1/api-keys", { headers: { "X-API-Key": account.apiKey } })).json()) as Array<{ id: string }>;
  const revoked = await request.post(`/v1/api-keys/${own[0]!.id}/revoke`, { headers: { "X-API-Key": account.apiKey } });
  expect(revoked.status()).toBe(200);
  await page.goto(await mailedResetLink(request, account.email));
  await expect(page.getByText("Your account has no active API keys, so none will be revoked.")).toBeVisible();
  await expect(revokedKeys(page)).toHaveCount(0);
  await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await page.getByLabel("Repeat the new password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("No session was open and no API key was active.")).toBeVisible();
});

test("the forgot-password, reset-password and account pages pass the quality checks @phone", async ({ page, request }, testInfo) => {
  test.slow(); // eight pages through axe and a full-page screenshot
  await page.goto("/forgot-password");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkPageQuality(page, testInfo, "forgot-password");
  await page.getByLabel("E-mail").fill(uniqueEmail("quality-with-a-rather-long-local-part"));
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await checkPageQuality(page, testInfo, "forgot-password-sent");

  // An invalid link says so on opening.
  await page.goto("/reset-password?token=not-a-real-token");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "This link does not work" })).toBeVisible();
  await checkPageQuality(page, testInfo, "reset-password-invalid");

  const account = await seedConsumer({ plan: "creator", name: "Katherine Johnson" });
  await addKey(request, account.apiKey, "Publishing pipeline with a rather long descriptive name for a small screen");
  await page.goto(await mailedResetLink(request, account.email));
  await expect(revokedKeys(page)).toHaveCount(2);
  await checkPageQuality(page, testInfo, "reset-password");
  await page.getByLabel("New password", { exact: true }).fill("a long enough password");
  await page.getByLabel("Repeat the new password").fill("a long enough password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("Your password is changed")).toBeVisible();
  await checkPageQuality(page, testInfo, "reset-password-done");

  await logIn(page, { email: account.email, password: "a long enough password" });
  await page.goto("/dashboard/account");
  await expect(sessionItems(section(page, "Sessions"))).toHaveCount(1);
  await checkPageQuality(page, testInfo, "account");
  const password = section(page, "Password");
  await password.getByLabel("Current password").fill("not my password");
  await password.getByLabel("New password").fill("short");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByLabel("New password")).toHaveAccessibleDescription("Use at least 8 characters.");
  await checkPageQuality(page, testInfo, "account-errors");
});
