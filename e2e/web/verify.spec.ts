// The verify page: a visitor sees the attestation's facts, their browser checks the proof
// bundle it downloads (tampered bundles are served with page.route), and a dropped file is
// hashed locally and compared.
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { expect, test, checkPageQuality, logIn } from "./support";
import { fetchBundle, mint, tempDir, writeFile, type Minted } from "./visitor-fixtures";
import { seedConsumer, type SeededConsumer } from "../accounts";

const CHECKS = [
  "Log checkpoint signature",
  "Included in the log",
  "Signature by the issuer's key",
  "Key valid at signing time",
  "Bundle matches this page",
  "Cosigned by independent witnesses",
];

const check = (page: Page, name: string) =>
  page.getByRole("list", { name: "Proof checks" }).getByRole("listitem").filter({ hasText: name });

async function expectChecks(page: Page, states: Record<string, "Passed" | "Failed" | "Not checked">) {
  for (const [name, state] of Object.entries(states)) await expect(check(page, name), name).toContainText(state);
}

/** Whether an element's text colour is a red (read back through a canvas, whatever the CSS colour space). */
function isRed(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el).color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return r! > g! + 60 && r! > b! + 60;
  });
}

const allPassed = Object.fromEntries(CHECKS.map((c) => [c, "Passed" as const]));

let dir: string;
let creator: SeededConsumer;
let work: Minted;
let other: Minted;
let secret: Minted;

test.beforeAll(async () => {
  dir = tempDir();
  creator = await seedConsumer({ plan: "creator", name: "Verity Visitor-Test" });
  work = await mint(creator.apiKey, dir, {
    title: `Harbour at dawn ${randomUUID().slice(0, 6)}`,
    visibility: "public",
    fileName: "harbour-at-dawn.txt",
    category: "digital-art",
  });
  other = await mint(creator.apiKey, dir, {
    title: `Another piece ${randomUUID().slice(0, 6)}`,
    visibility: "public",
    fileName: "another-piece.txt",
  });
  secret = await mint(creator.apiKey, dir, {
    title: `Unreleased album ${randomUUID().slice(0, 6)}`,
    visibility: "private",
    fileName: `private-demo-${randomUUID().slice(0, 6)}.txt`,
    description: `Confidential liner notes ${randomUUID().slice(0, 6)}`,
  });
});

test("shows the attestation's facts and verifies the proof in the browser @phone", async ({ page }, testInfo) => {
  const bundleRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/proof-bundle") || r.url().endsWith("/v1/log")) bundleRequests.push(new URL(r.url()).pathname);
  });
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Verify this protection" })).toBeVisible();
  await expect(page.getByText(`sha256:${work.hash}`, { exact: true })).toBeVisible();
  await expect(page.getByText(work.attestation_id, { exact: true })).toBeVisible();
  await expect(page.getByText(work.title).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Verity Visitor-Test" })).toHaveAttribute(
    "href",
    new RegExp(`/portfolio/${creator.userId}$`),
  );
  await expect(page.getByText("harbour-at-dawn.txt")).toBeVisible();
  await expect(page.getByText("Digital art")).toBeVisible();
  await expect(page.getByText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/)).toBeVisible();

  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  await expectChecks(page, allPassed);
  await expect(page.getByRole("alert").filter({ hasText: "Verification failed" })).toHaveCount(0);
  // The browser fetched the bundle and the log key itself.
  expect(bundleRequests).toEqual(expect.arrayContaining([`/v1/protections/${work.protection_id}/proof-bundle`, "/v1/log"]));
  // The log key used is named, with a link to where the operator publishes it.
  await expect(page.getByText(/Log key used: origin .+, key ID [0-9a-f]{8}/)).toBeVisible();
  await expect(page.getByRole("link", { name: "/v1/log" })).toHaveAttribute("href", "/v1/log");
  await expect(page.getByText("npm run verify -- bundle.json --log-key log.pem")).toBeVisible();
  // The suite's log has two witnesses (either one a quorum): the page names who cosigned, and when.
  await expect(check(page, "Cosigned by independent witnesses")).toContainText(
    /w1 \(witness\.test\/w1\) at \d\d:\d\d:\d\d UTC on \d{4}-\d\d-\d\d/,
  );
  await expect(check(page, "Cosigned by independent witnesses")).toContainText("the policy's quorum (any of (w1, w2)) is met");
  await expect(page.getByRole("link", { name: "Download .tlog-proof" })).toHaveAttribute(
    "href",
    `/v1/protections/${work.protection_id}/tlog-proof`,
  );

  await checkPageQuality(page, testInfo, "verify");
});

test("the downloaded proof bundle is the one the server publishes", async ({ page }) => {
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download proof bundle" }).click()]);
  const saved = JSON.parse((await (await download.createReadStream()).toArray()).join(""));
  expect(saved.attestation.id).toBe(work.attestation_id);
  expect(saved.attestation.payload.content_hash).toBe(`sha256:${work.hash}`);
});

test("a dropped copy of the file matches; another file does not @phone", async ({ page }, testInfo) => {
  const workers: string[] = [];
  page.on("worker", (w) => workers.push(w.url()));
  await page.goto(`/verify/${work.protection_id}`);
  const status = page.getByRole("status").filter({ hasText: /Your file/ });

  await page.getByLabel("Check your file", { exact: true }).setInputFiles(work.path);
  await expect(status).toContainText("Your file matches this protection");
  await expect(status).toContainText(`sha256:${work.hash}`);

  // A real drop onto the zone, with a file that differs.
  const different = writeFile(dir, "not-the-work.txt", "these are other bytes\n");
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "not-the-work.txt", { type: "text/plain" }));
    return dt;
  }, "these are other bytes\n");
  await page.getByTestId("file-drop-zone").dispatchEvent("drop", { dataTransfer });
  await expect(status).toContainText("Your file does not match this protection");
  await expect(status).toContainText(`sha256:${different.hash}`);
  await expect(status).not.toContainText("Your file matches");
  // The hashing ran in a Web Worker (one per file), off the page's main thread.
  expect(workers.length).toBe(2);

  await checkPageQuality(page, testInfo, "verify-file-check");
});

/** One hex digit of a hex string, changed. */
const flipHex = (hex: string, at = 0) => hex.slice(0, at) + (hex[at] === "0" ? "1" : "0") + hex.slice(at + 1);

/** One byte inside base64 data, changed (the result is still valid base64 of the same length). */
function flipBase64Byte(b64: string, at: number) {
  const bytes = Buffer.from(b64, "base64");
  bytes[at] = bytes[at]! ^ 0x01;
  return bytes.toString("base64");
}

const tamperings: Array<{ what: string; failing: string; tamper: (b: any) => Promise<void> | void }> = [
  {
    what: "one byte of an inclusion-proof hash",
    failing: "Included in the log",
    tamper: (b) => {
      expect(b.inclusion_proof.hashes.length).toBeGreaterThan(0);
      b.inclusion_proof.hashes[0] = flipHex(b.inclusion_proof.hashes[0]);
    },
  },
  {
    what: "one byte of the log's checkpoint signature",
    failing: "Log checkpoint signature",
    tamper: (b) => {
      const sth = b.signed_tree_head;
      const forged = flipBase64Byte(sth.signature, 20);
      sth.checkpoint = sth.checkpoint.replace(sth.signature, forged);
      sth.signature = forged;
    },
  },
  {
    what: "the signed payload (its category)",
    failing: "Included in the log",
    tamper: (b) => {
      b.attestation.payload.category = "code";
    },
  },
  {
    what: "one byte of the attestation signature",
    failing: "Included in the log",
    tamper: (b) => {
      b.attestation.signature = flipBase64Byte(b.attestation.signature, 10);
    },
  },
  {
    what: "the issuer key, swapped for another issuer's",
    failing: "Signature by the issuer's key",
    tamper: async (b) => {
      const stranger = await seedConsumer({ plan: "creator", name: "Someone Else" });
      const theirs = await mint(stranger.apiKey, dir, { title: "Not yours", visibility: "public", fileName: "theirs.txt" });
      const key = (await fetchBundle(theirs.protection_id)).key;
      b.key = { ...key, issuer_id: b.key.issuer_id };
    },
  },
];

for (const t of tamperings) {
  test(`a bundle with ${t.what} altered fails: "${t.failing}"`, async ({ page }) => {
    // Mint something after `work`, so its proof has at least one hash.
    await mint(creator.apiKey, dir, { title: "Later", visibility: "private", fileName: "later.txt" });
    const bundle = await fetchBundle(work.protection_id);
    await t.tamper(bundle);
    let served = 0;
    await page.route("**/v1/protections/*/proof-bundle", (route) => {
      served++;
      return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(bundle) });
    });
    await page.goto(`/verify/${work.protection_id}`);
    const alert = page.getByRole("alert").filter({ hasText: "Verification failed" });
    await expect(alert).toBeVisible();
    expect(await isRed(alert), "the verdict is shown in red").toBe(true);
    await expect(page.getByText("Proof verified in your browser")).toHaveCount(0);
    await expect(check(page, t.failing)).toContainText("Failed");
    // Checks before the failing one passed; the failing one says why.
    const at = CHECKS.indexOf(t.failing);
    for (const name of CHECKS.slice(0, at)) await expect(check(page, name)).toContainText("Passed");
    for (const name of CHECKS.slice(at + 1, 4)) await expect(check(page, name)).toContainText("Not checked");
    expect(served).toBe(1);
  });
}

test('a valid bundle of another protection fails "Bundle matches this page"', async ({ page }) => {
  const theirs = await fetchBundle(other.protection_id);
  await page.route("**/v1/protections/*/proof-bundle", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(theirs) }),
  );
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByRole("alert").filter({ hasText: "Verification failed" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Verification failed" })).toContainText(other.protection_id);
  await expectChecks(page, {
    "Log checkpoint signature": "Passed",
    "Included in the log": "Passed",
    "Signature by the issuer's key": "Passed",
    "Key valid at signing time": "Passed",
    "Bundle matches this page": "Failed",
  });
});

test("while the witnesses have not cosigned, the page says it is waiting for them, then verifies in place", async ({ page }) => {
  // The server's answer for an entry its witnesses have not cosigned yet (e2e/api/witnessing.test.ts
  // has the server give it), twice; then the real bundle.
  let held = 0;
  await page.route("**/v1/protections/*/proof-bundle", (route) => {
    if (held++ >= 2) return route.continue();
    return route.fulfill({
      status: 503,
      contentType: "application/problem+json",
      headers: { "retry-after": "1" },
      body: JSON.stringify({
        type: "urn:hallmark:problem:not_yet_witnessed",
        title: "Not yet cosigned by the witnesses",
        status: 503,
        code: "not_yet_witnessed",
        detail: "This entry's checkpoint has not yet been cosigned by the witnesses the log's policy requires.",
      }),
    });
  });
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByRole("status").filter({ hasText: "Waiting for witnesses…" })).toBeVisible();
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  await expectChecks(page, allPassed);
  expect(held).toBe(3);
});

test("a bundle that cannot be downloaded fails visibly", async ({ page }) => {
  await page.route("**/v1/protections/*/proof-bundle", (route) => route.fulfill({ status: 503, body: "down" }));
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByRole("alert").filter({ hasText: "Verification failed" })).toContainText("HTTP 503");
  await expect(page.getByText("Proof verified in your browser")).toHaveCount(0);
});

test("a private protection's verify page is a 404 to a visitor; its owner's browser opens the sealed entry and verifies it @phone", async ({
  page,
}, testInfo) => {
  const res = await page.goto(`/verify/${secret.protection_id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Protection not found" })).toBeVisible();
  const html = await page.content();
  for (const hidden of [secret.title, secret.description, secret.fileName, secret.hash]) expect(html, hidden).not.toContain(hidden);

  await logIn(page, creator);
  await page.goto(`/verify/${secret.protection_id}`);
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  await expectChecks(page, { ...allPassed, "Sealed entry opened": "Passed", "Sealed by the log's sealing key": "Passed" });
  await expect(page.getByText(`sha256:${secret.hash}`, { exact: true })).toBeVisible();
  await expect(page.getByText(/only you can see this page/).first()).toBeVisible();
  await page.getByLabel("Check your file", { exact: true }).setInputFiles(secret.path);
  await expect(page.getByRole("status").filter({ hasText: /Your file/ })).toContainText("Your file matches this protection");
  await checkPageQuality(page, testInfo, "verify-private");
});

test("an unknown protection is a 404 with a helpful page @phone", async ({ page }, testInfo) => {
  for (const id of [randomUUID(), "not-an-id"]) {
    const res = await page.goto(`/verify/${id}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Protection not found" })).toBeVisible();
  }
  await checkPageQuality(page, testInfo, "verify-not-found");
});

test("a visitor's pinned policy whose quorum is not met is said plainly; the log's policy again passes", async ({ page }) => {
  const published = await (await fetch(`${(process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]}/v1/log/policy`)).text();
  // A witness that never cosigned this log, required alone.
  const raw = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const id = createHash("sha256")
    .update("absent.example")
    .update(Buffer.from([0x0a, 0x04]))
    .update(raw)
    .digest()
    .subarray(0, 4)
    .toString("hex");
  const strict = published.replace(
    /^quorum .*$/m,
    `witness w3 absent.example+${id}+${Buffer.concat([Buffer.from([4]), raw]).toString("base64")}\nquorum w3`,
  );
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  await page.getByText("Witness policy: the one this log publishes").click();
  await page.getByLabel(/Paste a policy you trust/).fill(strict);
  await page.getByRole("button", { name: "Pin this policy" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Verification failed" });
  await expect(alert).toContainText("Quorum not met", { timeout: 15_000 });
  await expect(check(page, "Cosigned by independent witnesses")).toContainText("but the policy requires w3");
  await expect(page.getByText("Witness policy: your own, pinned in this browser")).toBeVisible();
  await page.getByRole("button", { name: "Use the log's policy again" }).click();
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
});

test("checks the RFC 3161 time-stamp in the browser against the authority the log names @phone", async ({ page }, testInfo) => {
  const base = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;
  const log = (await (await fetch(`${base}/v1/log`)).json()) as { timestamping: { certificate_pem: string } | null };
  test.skip(!log.timestamping, "this run has no time-stamping authority (HALLMARK_TSA_URL)");
  // The suite's TSA stamps the newest checkpoint every second: wait until this entry's bundle carries a token.
  await expect
    .poll(
      async () =>
        Boolean(
          ((await (await fetch(`${base}/v1/protections/${work.protection_id}/proof-bundle`)).json()) as { timestamp?: unknown }).timestamp,
        ),
      {
        timeout: 20_000,
      },
    )
    .toBe(true);
  await page.goto(`/verify/${work.protection_id}`);
  await expect(page.getByText("Proof verified in your browser")).toBeVisible();
  const stamp = check(page, "Time-stamped by an independent authority");
  await expect(stamp).toContainText("Passed");
  await expect(stamp).toContainText(/existed no later than \d\d:\d\d:\d\d UTC on \d{4}-\d\d-\d\d, per Hallmark Test TSA/);
  await checkPageQuality(page, testInfo, "verify-timestamp");
});
