// Issue 4's end-to-end journey, as a creator and a visitor meet it: sign up, confirm from the
// e-mail, log in, protect a real file, then in a fresh browser verify it, match the file,
// reject another, and see a tampered bundle fail.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, logIn, uniqueEmail, verificationLink, waitForMail } from "./support";

function fileWith(name: string, bytes: Buffer) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-journey-")), name);
  fs.writeFileSync(file, bytes);
  return { file, sha256: createHash("sha256").update(bytes).digest("hex") };
}

test("sign up → confirm → log in → protect a file → a visitor verifies it, matches it, and catches tampering", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("journey");
  const password = "a long enough password";

  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Ada Lovelace");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  const [mail] = await waitForMail(email);
  await page.goto(verificationLink(mail!).link);
  await page.getByLabel("Your password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirm my e-mail address" }).click();
  await expect(page.getByText("E-mail address confirmed")).toBeVisible();
  await logIn(page, { email, password }, /\/dashboard$/);

  const work = fileWith("sonnet-18.txt", Buffer.concat([Buffer.from("Shall I compare thee to a summer's day?\n"), randomBytes(4096)]));
  await page.getByLabel("Choose files").setInputFiles(work.file);
  await expect(page.getByText(work.sha256)).toBeVisible();
  // Public, so that anyone holding the link can check it (a private one is the creator's alone).
  await page.getByRole("radio", { name: "Public", exact: true }).check();
  await page.getByRole("button", { name: "Protect", exact: true }).click();
  const verifyLink = page.getByRole("link", { name: /\/verify\/[0-9a-f-]{36}$/ });
  await expect(verifyLink).toBeVisible();
  const verifyUrl = (await verifyLink.getAttribute("href"))!;
  expect(verifyUrl).toMatch(/\/verify\/[0-9a-f-]{36}$/);

  // A visitor: a fresh browser context, no cookies, nothing but the link.
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(verifyUrl);
  await expect(v.getByText("Proof verified in your browser")).toBeVisible();
  await expect(v.getByText(work.sha256).first()).toBeVisible();
  await v.getByLabel("Check your file").setInputFiles(work.file);
  await expect(v.getByText("Your file matches this protection")).toBeVisible();
  const other = fileWith(
    "sonnet-18-edited.txt",
    Buffer.concat([Buffer.from("Shall I compare thee to a winter's day?\n"), randomBytes(4096)]),
  );
  await v.getByLabel("Check your file").setInputFiles(other.file);
  await expect(v.getByText("Your file does not match this protection")).toBeVisible();

  // The same page served a tampered bundle (one hex digit of the signature's base64 flipped in
  // transit) must fail visibly, in the visitor's own browser.
  const tampered = await browser.newContext();
  const t = await tampered.newPage();
  await t.route("**/v1/protections/*/proof-bundle", async (route) => {
    const res = await route.fetch();
    const bundle = await res.json();
    const sig: string = bundle.attestation.signature;
    bundle.attestation.signature = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    await route.fulfill({ response: res, json: bundle });
  });
  await t.goto(verifyUrl);
  await expect(t.getByText("Verification failed")).toBeVisible();
  await expect(t.getByText("Proof verified in your browser")).toHaveCount(0);
  await visitor.close();
  await tampered.close();
});
