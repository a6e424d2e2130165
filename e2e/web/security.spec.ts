// Hostile origins, as a browser meets them: a page elsewhere cannot act with the visitor's
// session, no `next` sends anyone off the origin after a real login, and the CSP refuses a script
// that Hallmark did not send (the watch that fails every spec on a violation is proven here).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "@playwright/test";
import { expect, logIn, test, watchCsp } from "./support";
import { seedConsumer } from "../accounts";

/** An HTTP server on 127.0.0.1 and another port: the same site as Hallmark's test server, another origin. */
async function otherOrigin(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

test("a page on another origin of the same site cannot act with the visitor's session; Hallmark's own pages still can", async ({
  page,
  baseURL,
}) => {
  const creator = await seedConsumer({ plan: "creator" });
  const keys = async () => {
    const res = await page.request.get("/v1/api-keys", { headers: { "x-api-key": creator.apiKey } });
    expect(res.status()).toBe(200);
    return (await res.json()) as { id: string; name: string; status: string }[];
  };
  const target = await page.request.post("/v1/api-keys", {
    headers: { "x-api-key": creator.apiKey },
    data: { name: "target", scopes: ["protections:read"] },
  });
  expect(target.status()).toBe(201);
  const targetId = ((await target.json()) as { id: string }).id;
  await logIn(page, creator, /\/dashboard$/);

  // The planted key's request even carries the password: only the origin check stands in its way.
  const attacker = await otherOrigin(`<!doctype html><title>Free prizes</title>
    <form id="f" method="POST" action="${baseURL}/v1/api-keys/${targetId}/revoke"><input name="x" value="1"></form>
    <script>
      fetch(${JSON.stringify(`${baseURL}/api/trpc/apiKeys.create`)}, { method: "POST", credentials: "include", mode: "no-cors",
        headers: { "content-type": "text/plain" }, body: JSON.stringify(${JSON.stringify({ name: "planted", scopes: ["protections:read"], password: creator.password })}) })
        .finally(() => document.getElementById("f").submit());
    </script>`);
  try {
    const answered = page.waitForResponse((r) => r.url().endsWith(`/v1/api-keys/${targetId}/revoke`));
    await page.goto(attacker.url);
    const res = await answered;
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("cross_origin_request");
  } finally {
    await attacker.close();
  }
  const after = await keys();
  expect(after.find((k) => k.id === targetId)?.status).toBe("ACTIVE");
  expect(after.map((k) => k.name)).not.toContain("planted");

  // The same session on Hallmark's own page: the dashboard creates and revokes keys as before.
  await page.goto("/dashboard/api-keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API key" });
  await dialog.getByLabel("Name").fill("made here");
  await dialog.getByRole("checkbox", { name: "protections:read", exact: true }).check();
  await dialog.getByLabel("Current password").fill(creator.password);
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("region", { name: "Your new key “made here”" })).toBeVisible();
  expect((await keys()).map((k) => k.name)).toContain("made here");
});

// Each `next` as it appears, raw, in the login URL's query string.
const FOREIGN_NEXT = [
  "//evil.example/",
  "/%5Cevil.example/",
  "/%5C/evil.example/",
  "%5C%5Cevil.example/",
  "/%09/evil.example/",
  "/%0a/evil.example/",
  "/%0d/evil.example/",
  "/%0d%0a/evil.example/",
  "https://evil.example/",
  "https:evil.example",
  "javascript:alert(document.domain)",
  "%2F%2Fevil.example",
];

// Paths on this origin that resolve to "//evil.example/…" (or "/\evil…") once the URL parser
// removes their dot-segments, percent-encoded or not: a browser reads such a path as another host.
const DOT_SEGMENT_NEXT = [
  "%2F.%2F%2Fevil.example%2Fphish",
  "/.//evil.example/phish",
  "/%2e//evil.example/phish",
  "/./%5Cevil.example/phish",
  "/.%5C/evil.example/phish",
  "/./%09/evil.example/phish",
  "/a/..//evil.example/phish",
  "/a/%2e%2e/%5Cevil.example/phish",
  "..//evil.example/phish",
  "%2E%2E%2F%2Fevil.example%2Fphish",
];

/**
 * Logs in through the login page with each `next`, each time without a session (the context's
 * cookies cleared), and checks it ends on this origin's dashboard having asked nothing of another host.
 */
async function loginLandsOnDashboard(browser: Browser, baseURL: string, nexts: string[]) {
  const creator = await seedConsumer({ plan: "creator" });
  const context = await browser.newContext({ baseURL });
  const left: string[] = [];
  await context.route(
    (url) => url.hostname.endsWith("evil.example"),
    (route) => (left.push(route.request().url()), route.abort()),
  );
  const page = await context.newPage();
  for (const next of nexts) {
    await context.clearCookies();
    await page.goto(`/login?next=${next}`);
    await page.getByLabel("E-mail").fill(creator.email);
    await page.getByLabel("Password").fill(creator.password);
    await page.getByRole("button", { name: "Log in" }).click();
    // Where the login sends the browser is known once the next document commits; its loading is not the subject.
    await page.waitForURL((url) => url.pathname === "/dashboard", { timeout: 30_000, waitUntil: "commit" }).catch(() => {});
    expect({ next, url: page.url(), left }).toEqual({ next, url: `${baseURL}/dashboard`, left: [] });
  }
  await context.close();
}

test("after a real login no `next` leaves the origin: foreign and malformed ones land on the dashboard", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  await loginLandsOnDashboard(browser, baseURL!, FOREIGN_NEXT);
});

test("after a real login no `next` leaves the origin through dot-segments, however encoded", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  // The last: an absolute URL on this very origin whose path resolves to "//evil.example/…".
  await loginLandsOnDashboard(browser, baseURL!, [...DOT_SEGMENT_NEXT, encodeURIComponent(`${baseURL}/.//evil.example/phish`)]);
});

test("after a real login a `next` on this origin is honoured, query and all", async ({ page, baseURL }) => {
  const creator = await seedConsumer({ plan: "creator" });
  await page.goto(`/login?next=${encodeURIComponent("/dashboard/protections?visibility=public")}`);
  await page.getByLabel("E-mail").fill(creator.email);
  await page.getByLabel("Password").fill(creator.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard/protections?visibility=public`);
});

test("the Content-Security-Policy refuses a script Hallmark did not send, and the watch reports it", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const violations = await watchCsp(context);
  const page = await context.newPage();
  // An injection into Hallmark's own HTML, delivered with Hallmark's own headers.
  await page.route("**/login", async (route) => {
    const res = await route.fetch();
    const body = (await res.text()).replace("</body>", "<script>window.__injected = true</script></body>");
    await route.fulfill({ response: res, body });
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected === true)).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(violations.join("\n")).toMatch(/script-src/);
  await context.close();
});
