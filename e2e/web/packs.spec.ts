// Verification packs and verifications in the organisation console, driven as an
// owner would: templates, clone, edit with the server's validation, archive and restore, and
// verifications of a real attestation (made over REST with the organisation's key).
import { createHash, randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { PACK_TEMPLATES } from "../../server/domain/packs/pack-templates";
import { expect, test, checkPageQuality, logIn } from "./support";
import { seedOrg } from "../accounts";

type PackItem = { id: string; name: string; is_template: boolean; verifications_count: number };

const headers = (key: string) => ({ "X-API-Key": key });

async function packsOf(request: APIRequestContext, key: string): Promise<PackItem[]> {
  const res = await request.get("/v1/attestation-packs", { headers: headers(key) });
  expect(res.status()).toBe(200);
  return (await res.json()).items;
}

/** An issuer and one attestation of the organisation, made over REST; the content's SHA-256 too. */
async function attestation(request: APIRequestContext, key: string) {
  const issuer = await request.post("/v1/issuers", {
    headers: headers(key),
    data: { name: "Wire Desk", domain: `wire-${randomUUID().slice(0, 8)}.example.org` },
  });
  expect(issuer.status(), await issuer.text()).toBe(201);
  const issuerId = (await issuer.json()).id as string;
  const hash = createHash("sha256").update(`photo ${randomUUID()}`).digest("hex");
  const att = await request.post("/v1/attestations", {
    headers: headers(key),
    data: { issuer_id: issuerId, payload: { content_hash: `sha256:${hash}`, category: "media", title: "Harbour at dawn" } },
  });
  expect(att.status(), await att.text()).toBe(201);
  const id = (await att.json()).id as string;
  const bundle = await request.get(`/v1/attestations/${id}/proof-bundle`, { headers: headers(key) });
  expect(bundle.status()).toBe(200);
  return { issuerId, id, hash, bundle: await bundle.json() };
}

async function clonePack(request: APIRequestContext, key: string, templateName: string, name: string) {
  const template = (await packsOf(request, key)).find((p) => p.name === templateName)!;
  const res = await request.post(`/v1/attestation-packs/${template.id}/clone`, { headers: headers(key), data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PackItem;
}

const checks = (page: Page) => page.getByRole("list", { name: "Checks" }).getByRole("listitem");
const check = (page: Page, name: string) => page.getByRole("list", { name: "Checks" }).locator(`[data-check="${name}"]`);
const count = (page: Page) => page.getByTestId("verifications-count");

test.describe("verification packs", () => {
  test("templates first; a template is read-only and clones into a custom pack that is edited, validated by the server, archived and restored", async ({
    page,
  }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Packs" }).click();
    await expect(page).toHaveURL(/\/console\/packs$/);
    await expect(page.getByRole("heading", { level: 1, name: "Verification packs" })).toBeVisible();

    // Exactly the domain's templates, in its order, each marked; no custom pack yet.
    const templateRows = page.getByRole("table", { name: "Built-in templates" }).locator("tbody tr");
    await expect(templateRows).toHaveCount(PACK_TEMPLATES.length);
    for (const [i, t] of PACK_TEMPLATES.entries()) {
      await expect(templateRows.nth(i).getByRole("rowheader")).toContainText(t.name);
      await expect(templateRows.nth(i)).toContainText("Template");
      await expect(templateRows.nth(i)).toContainText(t.region);
      await expect(templateRows.nth(i)).toContainText("Active");
    }
    await expect(page.getByText("No custom packs yet")).toBeVisible();

    // Filter by status: no template is archived.
    await page.getByRole("navigation", { name: "Filter packs by status" }).getByRole("link", { name: "Archived" }).click();
    await expect(page).toHaveURL(/status=archived$/);
    await expect(page.getByText("No templates with this status.")).toBeVisible();
    await expect(page.getByText("No archived custom packs")).toBeVisible();
    await page.getByRole("navigation", { name: "Filter packs by status" }).getByRole("link", { name: "All" }).click();

    // A template: its rules for people and as JSON, no Edit, no Archive.
    const ai = PACK_TEMPLATES.find((t) => t.key === "eu-ai-act-art50-disclosure")!;
    await page.getByRole("table", { name: "Built-in templates" }).getByRole("link", { name: ai.name }).click();
    await expect(page.getByRole("heading", { level: 1, name: ai.name })).toBeVisible();
    await expect(page.getByText(ai.description)).toBeVisible();
    const rules = page.getByRole("list", { name: "Rules" });
    await expect(rules).toContainText("Payload fields content_hash and category required");
    await expect(rules).toContainText("Category is ai-output");
    await expect(rules).toContainText("Issuer status is PENDING or ACTIVE");
    await expect(rules).toContainText("Signing key algorithm is Ed25519");
    await expect(page.getByTestId("rules-json")).toBeHidden();
    await page.getByText(/Rules as JSON/).click();
    expect(JSON.parse(await page.getByTestId("rules-json").innerText())).toEqual(ai.rules);
    await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Archive" })).toHaveCount(0);
    await expect(count(page)).toHaveText("0");

    // Clone it with a name: we land on the new custom pack.
    await page.getByRole("button", { name: "Clone into a custom pack" }).click();
    const dialog = page.getByRole("dialog", { name: "Clone into a custom pack" });
    await expect(dialog.getByLabel("Name of the new pack")).toBeFocused();
    await dialog.getByLabel("Name of the new pack").fill("Our AI disclosure policy");
    await dialog.getByRole("button", { name: "Clone pack" }).click();
    await expect(page).toHaveURL(/\/console\/packs\/[0-9a-f-]{36}\?cloned=1$/);
    const packUrl = page.url().replace(/\?.*$/, "");
    await expect(page.getByRole("heading", { level: 1, name: "Our AI disclosure policy" })).toBeVisible();
    await expect(page.getByText("Custom", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: ai.name })).toBeVisible(); // cloned from
    await expect(page.getByRole("list", { name: "Rules" })).toContainText("Category is ai-output");

    // Edit: an invalid rule is refused by the server, shown at the field with its pointer.
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Edit “Our AI disclosure policy”" })).toBeVisible();
    await page.getByLabel("Description").fill("Our newsroom's policy for AI-generated images.");
    const rulesField = page.getByLabel("Rules (JSON)");
    const edited = { ...ai.rules, max_age_days: 0 };
    await rulesField.fill(JSON.stringify(edited, null, 2));
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(rulesField).toBeFocused();
    await expect(rulesField).toHaveAttribute("aria-invalid", "true");
    await expect(rulesField).toHaveAccessibleDescription(/\/rules\/max_age_days/);
    await expect(page.getByRole("list", { name: "Where in the rules:" })).toContainText("/rules/max_age_days");
    await expect(page).toHaveURL(/\/edit$/);

    // Not JSON at all: told before anything is sent.
    await rulesField.fill("{ max_age_days: 30");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(rulesField).toHaveAccessibleDescription(/not valid JSON/);

    // A valid rule saves.
    await rulesField.fill(JSON.stringify({ ...ai.rules, max_age_days: 90 }, null, 2));
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\?saved=1$/);
    await expect(page.getByText("Changes saved")).toBeVisible();
    await expect(page.getByText("Our newsroom's policy for AI-generated images.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Rules" })).toContainText("Attested at most 90 days ago");
    await expect(page.getByText("(revision 2)")).toBeVisible();

    // Archive after confirming; then it is listed as archived; restore.
    await page.getByRole("button", { name: "Archive" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Archive this pack?" });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Archive pack" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Archived", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Run a verification with this pack" })).toHaveCount(0);
    await page.goto("/console/packs?status=archived");
    await expect(
      page.getByRole("table", { name: "Custom packs, newest first" }).getByRole("link", { name: "Our AI disclosure policy" }),
    ).toBeVisible();
    await page.goto(packUrl);
    await page.getByRole("button", { name: "Restore" }).click();
    await page.getByRole("alertdialog", { name: "Restore this pack?" }).getByRole("button", { name: "Restore pack" }).click();
    await expect(page.getByRole("button", { name: "Archive" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Run a verification with this pack" })).toBeVisible();

    // The list now has the templates first, then the custom pack.
    await page.goto("/console/packs");
    const allRows = page.locator("table tbody tr");
    await expect(allRows).toHaveCount(PACK_TEMPLATES.length + 1);
    await expect(allRows.nth(PACK_TEMPLATES.length)).toContainText("Our AI disclosure policy");
    await expect(allRows.nth(PACK_TEMPLATES.length)).not.toContainText("Template");
  });

  test("a new custom pack from the form; the server's errors show at their fields", async ({ page }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    await logIn(page, org);
    await page.goto("/console/packs");
    await page.getByRole("link", { name: "New pack" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New verification pack" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Wire photos");
    await page.getByLabel("Rules (JSON)").fill('{"allowed_categories": ["media"], "typo_rule": true}');
    await page.getByRole("button", { name: "Create pack" }).click();
    await expect(page.getByLabel("Rules (JSON)")).toHaveAccessibleDescription(/typo_rule/);
    await page.getByLabel("Rules (JSON)").fill('{"allowed_categories": ["media"], "min_trust_level": "VERIFIED"}');
    await page.getByLabel("Region").fill("EU");
    await page.getByRole("button", { name: "Create pack" }).click();
    await expect(page).toHaveURL(/\/console\/packs\/[0-9a-f-]{36}\?created=1$/);
    await expect(page.getByRole("heading", { level: 1, name: "Wire photos" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Rules" })).toContainText("Issuer trust level at least VERIFIED");
    await expect(page.getByRole("list", { name: "Rules" })).toContainText("Category is media");
  });

  test("verify a real attestation against a pack: every check with its reason, the pack counts exactly one; a tampered bundle fails", async ({
    page,
    request,
  }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    const att = await attestation(request, org.apiKey);
    const pack = await clonePack(request, org.apiKey, "Content authenticity baseline", "Wire desk baseline");
    await logIn(page, org);

    await page.goto(`/console/packs/${pack.id}`);
    await expect(count(page)).toHaveText("0");
    await page.getByRole("link", { name: "Run a verification with this pack" }).click();
    await expect(page).toHaveURL(new RegExp(`/console/verifications\\?pack=${pack.id}$`));
    await expect(page.getByLabel("Pack")).toHaveValue(pack.id);
    await expect(page.getByText("No verifications yet")).toBeVisible();

    await page.getByRole("textbox", { name: "Attestation ID" }).fill(att.id);
    await page.getByLabel("Content hash (optional)").fill(`sha256:${att.hash}`);
    await page.getByRole("button", { name: "Verify" }).click();
    const result = page.getByTestId("verification-result");
    await expect(result.getByTestId("verdict")).toContainText("Verification passed");
    await expect(result.getByRole("heading", { name: "Result" })).toBeFocused();
    const names = [
      "checkpoint_signature",
      "inclusion",
      "attestation_signature",
      "key_validity",
      "required_fields",
      "allowed_issuer_statuses",
      "allowed_key_algorithms",
      "content_hash_match",
    ];
    await expect(checks(page)).toHaveCount(names.length);
    for (const [i, name] of names.entries()) {
      const item = checks(page).nth(i);
      await expect(item).toContainText(name);
      await expect(item).toContainText("Pass");
      await expect(item.locator("p")).not.toBeEmpty();
    }
    await expect(checks(page).nth(1)).toContainText(/attestation is leaf \d+ of \d+/);
    await expect(checks(page).nth(4)).toContainText("payload has content_hash");
    await expect(checks(page).nth(5)).toContainText("issuer status PENDING is allowed");
    await expect(checks(page).nth(7)).toContainText("the content hash sent equals the attested content_hash");
    await expect(result).toContainText("now used in 1 verification");

    // The pack's count went up by exactly one.
    await page.goto(`/console/packs/${pack.id}`);
    await expect(count(page)).toHaveText("1");

    // A tampered bundle, pasted: the cryptographic check fails with its reason, no rule is trusted.
    await page.goto(`/console/verifications?pack=${pack.id}`);
    const tampered = structuredClone(att.bundle);
    tampered.attestation.payload.title = "Harbour at dusk";
    await page.getByRole("radio", { name: "Proof bundle (paste JSON)" }).check();
    await page.getByLabel("Proof bundle (JSON)").fill(JSON.stringify(tampered, null, 2));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(result.getByTestId("verdict")).toContainText("Verification failed");
    const inclusion = check(page, "inclusion");
    await expect(inclusion).toContainText("Fail");
    await expect(inclusion).toContainText("the attestation is not at log_index in the signed tree");
    await expect(check(page, "required_fields")).toContainText("not evaluated");
    await expect(checks(page).nth(0)).toContainText("Pass");

    // Both are recorded, newest first; the record shows the checks as answered.
    const recent = page.getByRole("list", { name: "Recent verifications, newest first" }).getByRole("listitem");
    await expect(recent).toHaveCount(2);
    await expect(recent.nth(0)).toContainText("Fail");
    await expect(recent.nth(1)).toContainText("Pass");
    await recent.nth(1).getByRole("link", { name: "Wire desk baseline" }).click();
    await expect(page).toHaveURL(/\/console\/verifications\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("verdict")).toContainText("Verification passed");
    await expect(checks(page)).toHaveCount(names.length);
    await expect(page.getByText(att.id)).toBeVisible();

    await page.goto(`/console/packs/${pack.id}`);
    await expect(count(page)).toHaveText("2");
  });

  test("an unknown pack, another organisation's pack and an unknown verification are not found", async ({ page, request }) => {
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    const other = await seedOrg({ owner: { name: "Grace Hopper" } });
    const foreign = (await packsOf(request, other.apiKey))[0]!;
    await logIn(page, org);
    for (const path of [
      `/console/packs/01900000-0000-7000-8000-000000000000`,
      `/console/packs/${foreign.id}`,
      `/console/packs/${foreign.id}/edit`,
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByText("This pack could not be found")).toBeVisible();
      await expect(page.getByText(foreign.name)).toHaveCount(0);
    }
    const res = await page.goto("/console/verifications/01900000-0000-7000-8000-000000000000");
    expect(res?.status()).toBe(404);
    await expect(page.getByText("This verification could not be found")).toBeVisible();
  });

  test("the pages pass the quality checks @phone", async ({ page, request }, testInfo) => {
    test.setTimeout(120_000); // five pages, each through axe and a full-page screenshot
    const org = await seedOrg({ owner: { name: "Grace Hopper" } });
    const att = await attestation(request, org.apiKey);
    const pack = await clonePack(request, org.apiKey, "Newsroom media authenticity", "Newsroom, 30 days");
    await logIn(page, org);

    await page.goto("/console/packs");
    await expect(page.getByRole("heading", { level: 1, name: "Verification packs" })).toBeVisible();
    await checkPageQuality(page, testInfo, "packs-list");

    await page.goto(`/console/packs/${pack.id}`);
    await page.getByText(/Rules as JSON/).click();
    await expect(page.getByTestId("rules-json")).toBeVisible();
    await checkPageQuality(page, testInfo, "pack-detail");

    await page.goto("/console/packs/new");
    await expect(page.getByLabel("Rules (JSON)")).toBeVisible();
    await checkPageQuality(page, testInfo, "pack-new");

    await page.goto(`/console/packs/${pack.id}/edit`);
    await page.getByLabel("Rules (JSON)").fill('{"max_age_days": 0}');
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("list", { name: "Where in the rules:" })).toBeVisible();
    await checkPageQuality(page, testInfo, "pack-edit-error");

    await page.goto(`/console/verifications?pack=${pack.id}`);
    await page.getByRole("textbox", { name: "Attestation ID" }).fill(att.id);
    await page.getByRole("button", { name: "Verify" }).click();
    // The newsroom pack asks for a VERIFIED issuer and the file's hash: a new issuer is BASIC, no hash sent.
    await expect(page.getByTestId("verdict")).toContainText("Verification failed");
    await expect(check(page, "min_trust_level")).toContainText("issuer trust level BASIC is below VERIFIED");
    await expect(page.getByRole("list", { name: "Recent verifications, newest first" }).getByRole("listitem")).toHaveCount(1);
    await checkPageQuality(page, testInfo, "verifications");

    await page.getByRole("link", { name: "Permanent record" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Verification" })).toBeVisible();
    await checkPageQuality(page, testInfo, "verification-detail");
  });
});
