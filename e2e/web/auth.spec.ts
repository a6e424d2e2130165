import { expect, test, checkPageQuality, logIn, uniqueEmail, verificationLink, waitForMail } from "./support";
import { seedConsumer } from "../accounts";

test("landing page says what a protection proves and what it does not @phone", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Prove your work existed");
  await expect(page.getByRole("heading", { name: "What a protection proves" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What it does not prove" })).toBeVisible();
  await expect(page.getByText(/re-encoding, resizing or re-saving changes/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Start free" })).toHaveAttribute("href", "/signup");
  await checkPageQuality(page, testInfo, "landing");
});

test("sign up, confirm from the e-mailed link, log in, log out for good", async ({ page, request }) => {
  const email = uniqueEmail("signup");
  const password = "correct horse battery";
  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Hedy Lamarr");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Follow it to confirm your address before you log in");

  // Before confirming, the right password is refused exactly as a wrong one (no telling who signed
  // up), and the refusal reminds a recent sign-up of the link.
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Could not log in" });
  await expect(refused).toContainText("The e-mail address or the password is wrong.");
  await expect(refused).toContainText("Signed up recently? Follow the link in the e-mail we sent you first.");
  await expect(refused.getByRole("link", { name: "Send a new link" })).toHaveAttribute("href", "/signup?resend=1");
  await expect(page).toHaveURL(/\/login$/);

  const [mail] = await waitForMail(email);
  const { link } = verificationLink(mail!);
  await page.goto(link);
  // A sign-up's link finishes with the password chosen at sign-up: a wrong one is said at the field.
  const chosen = page.getByLabel("Your password", { exact: true });
  await chosen.fill("not the one I chose");
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByText("Is not the password chosen at sign-up")).toBeVisible();
  await expect(chosen).toBeFocused();
  await chosen.fill(password);
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByText("E-mail address confirmed")).toBeVisible();
  // The link is single use.
  await page.reload();
  await page.getByLabel("Your password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "invalid, was already used, or has expired" })).toBeVisible();

  await logIn(page, { email, password });
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText(email);
  const cookie = (await page.context().cookies()).find((c) => c.name === "next-auth.session-token");
  expect(cookie?.httpOnly).toBe(true);
  // The dashboard's session is /v1's session.
  const during = await request.get("/v1/consumer/protections", { headers: { authorization: `Bearer ${cookie!.value}` } });
  expect(during.status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();
  // Signing out ended the session itself, not just the cookie: the old token is dead.
  const after = await request.get("/v1/consumer/protections", { headers: { authorization: `Bearer ${cookie!.value}` } });
  expect(after.status()).toBe(401);
});

test("a wrong password is refused without saying which part was wrong", async ({ page }) => {
  const account = await seedConsumer({ plan: "creator" });
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "The e-mail address or the password is wrong." });
  await expect(refused).toBeVisible();
  await expect(refused).toContainText("Signed up recently? Follow the link in the e-mail we sent you first.");
  await expect(page).toHaveURL(/\/login/);
});

test("a protected page sends a visitor to log in, and back afterwards", async ({ page }) => {
  const account = await seedConsumer({ plan: "creator" });
  await page.goto("/dashboard/protections");
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fprotections/);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/protections$/);
});

test("login, sign-up and confirmation pages pass the quality checks @phone", async ({ page }, testInfo) => {
  for (const [path, name] of [
    ["/login", "login"],
    ["/signup", "signup"],
    ["/verify-email?token=x", "verify-email"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await checkPageQuality(page, testInfo, name);
  }
  // The refused login, with its reminder of the mailed link.
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(uniqueEmail("quality-refused-with-a-long-local-part"));
  await page.getByLabel("Password").fill("not a password of anyone");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Signed up recently? Follow the link in the e-mail we sent you first.")).toBeVisible();
  await checkPageQuality(page, testInfo, "login-refused");
  // The sign-up's "check your inbox".
  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Quality Check");
  await page.getByLabel("E-mail").fill(uniqueEmail("quality-signup-with-a-long-local-part"));
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await checkPageQuality(page, testInfo, "signup-sent");
});
