// The account pages: forgotten passwords (/forgot-password, the mailed /reset-password link) and
// /dashboard/account (name, e-mail change, password change, sessions, deletion), as a person uses
// them, with the mail read from the suite's SMTP catcher.
import type { Browser, Locator, Page } from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { seedConsumer, seedOrg } from "../accounts";
import { mint, tempDir } from "./visitor-fixtures";
import { checkPageQuality, expect, logIn, test, uniqueEmail, verificationLink, waitForMail } from "./support";

/** The reset link of a message (its plain-text part). */
function resetLink(mail: ParsedMail): string {
  const match = /(\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? "");
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

const section = (page: Page, name: string) => page.getByRole("region", { name });
const sessionItems = (sessions: Locator) => sessions.getByRole("list", { name: "Sessions, newest first" }).getByRole("listitem");

test("forgot password: the login page's link, the mailed link, a new password, then log in with it", async ({ page, browser }) => {
  const account = await seedConsumer({ plan: "free" });
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

  const link = resetLink((await waitForMail(account.email)).at(-1)!);
  // Opening the page uses nothing up (mail scanners pre-open links): twice, then the form works.
  await page.goto(link);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  const newPassword = "a brand new passphrase";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill("a different passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("The two passwords differ")).toBeVisible();
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByText("Your password is changed")).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in" }).last()).toHaveAttribute("href", "/login");

  // The link works once, and says where to get another.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("yet another passphrase");
  await page.getByLabel("Repeat the new password").fill("yet another passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "This link does not work" });
  await expect(refused).toContainText("invalid, was already used, or has expired");
  await expect(refused.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");

  // The reset ended the session opened before it; the old password is refused, the new one works.
  await expectLoggedOut(elsewhere.page);
  await expectLoginRefused(page, account.email, account.password);
  await logIn(page, { email: account.email, password: newPassword });
  await elsewhere.context.close();
});

test("the account page: rename, sessions, password change, e-mail change, then deletion", async ({ page, browser }) => {
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
  await expect(password.getByText("1 other session ended; this one stays.")).toBeVisible();
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
  const notice = (await waitForMail(account.email)).at(-1)!;
  expect(notice.subject).toBe("Your Hallmark e-mail address is about to change");
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

test("an organisation's owner reaches the account page from the console, without the deletion", async ({ page }) => {
  const org = await seedOrg({ owner: { name: "Ada Org-Owner" } });
  await logIn(page, org, /\/console/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText(`${org.name} · Organisation console`)).toBeVisible();
  await expect(section(page, "Name").getByLabel("Name")).toHaveValue("Ada Org-Owner");
  await expect(sessionItems(section(page, "Sessions"))).toHaveCount(1);
  await expect(section(page, "Delete your account")).toHaveCount(0);
});

test("the forgot-password, reset-password and account pages pass the quality checks @phone", async ({ page }, testInfo) => {
  test.slow(); // six pages through axe and a full-page screenshot
  await page.goto("/forgot-password");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkPageQuality(page, testInfo, "forgot-password");
  await page.getByLabel("E-mail").fill(uniqueEmail("quality-with-a-rather-long-local-part"));
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await checkPageQuality(page, testInfo, "forgot-password-sent");

  await page.goto("/reset-password?token=not-a-real-token");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkPageQuality(page, testInfo, "reset-password");
  await page.getByLabel("New password", { exact: true }).fill("a long enough password");
  await page.getByLabel("Repeat the new password").fill("a long enough password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This link does not work" })).toBeVisible();
  await checkPageQuality(page, testInfo, "reset-password-invalid");

  const account = await seedConsumer({ plan: "creator", name: "Katherine Johnson" });
  await logIn(page, account);
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
