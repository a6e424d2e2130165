// No silent dead ends: a page opened on another host name than the base URL's goes there (where
// its forms work), and a form that meets a refusal or no answer says so in words and can be sent
// again. 403 and 429 are the server's own answers, provoked; a 5xx and a network failure are
// simulated on the browser's side with page.route (the browser's handling is what is under test).
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./support";
import { tempDir, writeFile } from "./visitor-fixtures";
import { OwnServer } from "../api/own-server";
import { seedConsumer } from "../accounts";

const NETWORK = "Hallmark could not be reached. Check your connection, then try again.";
/** A log-in or a sign-up (an Argon2id hash) can take many seconds on a loaded machine: waits for its outcome allow for that. */
const SLOW = { timeout: 60_000 };

/** The form's alert holding `text` (Next.js's route announcer is an empty alert of its own). */
const alertWith = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

test.describe.configure({ timeout: 180_000 });

async function fillLogin(page: Page, account: { email: string; password: string }) {
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("a page opened on another host name than the base URL's goes to the base URL, path and query kept, and logging in works there", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const creator = await seedConsumer({ plan: "creator" });
  // `npm start` as a newcomer runs it (base URL http://localhost:<port>, no proxy), on the suite's database.
  const server = await OwnServer.start(
    { ...process.env, HALLMARK_TRUSTED_PROXIES: "0" },
    { baseUrl: (port) => `http://localhost:${port}` },
  );
  try {
    await server.ready(200_000);
    const base = `http://localhost:${server.port}`;
    await page.goto(`http://127.0.0.1:${server.port}/login?next=%2Fdashboard%2Fprotections`);
    await expect(page).toHaveURL(`${base}/login?next=%2Fdashboard%2Fprotections`);
    await fillLogin(page, creator);
    await expect(page).toHaveURL(`${base}/dashboard/protections`, SLOW);
  } finally {
    await server.stop();
  }
});

test("the login form says a 403 in words, naming the address to open, and can be sent again", async ({ page, baseURL }) => {
  const creator = await seedConsumer({ plan: "creator" });
  // The suite's server stands behind a trusted proxy that names no host: a page on another host
  // name is served, and its login is refused as cross-origin by the server itself.
  const other = baseURL!.replace("127.0.0.1", "localhost");
  await page.goto(`${other}/login`);
  await fillLogin(page, creator);
  await expect(alertWith(page, `only on requests from its own pages (${baseURL})`)).toContainText("Could not log in", SLOW);
  await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
});

test("the login form says how long to wait after too many failed attempts (429 with Retry-After)", async ({ page }) => {
  const creator = await seedConsumer({ plan: "creator" });
  // A client of its own, for the browser and the failed attempts alike (the suite stands where a
  // proxy would, naming clients in X-Forwarded-For): no other test shares its budget.
  const client = `10.24.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": client });
  let status = 401;
  for (let i = 0; i < 50 && status === 401; i++) {
    const res = await page.request.post("/v1/consumer/login", {
      headers: { "x-forwarded-for": client },
      data: { email: creator.email, password: `wrong password ${i}` },
    });
    status = res.status();
  }
  expect(status).toBe(429);
  await page.goto("/login");
  await fillLogin(page, creator);
  await expect(alertWith(page, /Too many failed attempts\. Try again in 1[45] minutes\./)).toBeVisible(SLOW);
  await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
});

test("the login form says a 5xx and a network failure in words, and logs in once the server answers again", async ({ page }) => {
  const creator = await seedConsumer({ plan: "creator" });
  await page.goto("/login");
  const callback = "**/api/auth/callback/credentials";
  await page.route(callback, (route) =>
    route.fulfill({ status: 502, contentType: "text/html", body: "<html><h1>502 Bad Gateway</h1></html>" }),
  );
  await fillLogin(page, creator);
  await expect(alertWith(page, "Something went wrong on the server's side (HTTP 502)")).toBeVisible(SLOW);
  await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();

  await page.unroute(callback);
  await page.route(callback, (route) => route.abort("internetdisconnected"));
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(alertWith(page, NETWORK)).toBeVisible(SLOW);
  await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();

  await page.unroute(callback);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, SLOW);
});

test("the sign-up form (tRPC) says a 5xx and a network failure in words", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Dee Tour");
  await page.getByLabel("E-mail").fill(`dead-end-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByLabel("Password").fill("correct horse battery");
  const call = "**/api/trpc/consumerAuth.signup**";
  await page.route(call, (route) =>
    route.fulfill({ status: 503, contentType: "text/html", headers: { "retry-after": "30" }, body: "<html>down</html>" }),
  );
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(
    alertWith(page, "Something went wrong on the server's side (HTTP 503). Nothing was lost: try again in 30 seconds."),
  ).toBeVisible(SLOW);
  await expect(page.getByRole("button", { name: "Create account" })).toBeEnabled();

  await page.unroute(call);
  await page.route(call, (route) => route.abort("internetdisconnected"));
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(alertWith(page, NETWORK)).toBeVisible(SLOW);
  await expect(page.getByRole("button", { name: "Create account" })).toBeEnabled();

  await page.unroute(call);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible(SLOW);
});

test("the file check says a network failure in words", async ({ page }) => {
  const file = writeFile(tempDir(), `offline-${randomUUID().slice(0, 6)}.txt`);
  await page.route("**/v1/lookup**", (route) => route.abort("internetdisconnected"));
  await page.goto("/check");
  await page.getByLabel("Choose a file to look up").setInputFiles(file.path);
  await expect(page.getByRole("status")).toContainText(NETWORK, SLOW);
});
