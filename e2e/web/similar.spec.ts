// Finding a picture whose bytes changed: the Protect page fingerprints a photo in the browser
// (PDQ beside SHA-256, in the worker) and mints the fingerprint with it; on /check a resized
// copy finds the protection as visually similar, an unrelated photo finds none, and the verify
// page says a copy looks like the protected picture. The browser's hashes are compared with
// Node's (lib/fingerprint/node.ts) and the reference's on the reference's own images.
import fs from "node:fs";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { pdqDistance } from "../../lib/fingerprint/pdq";
import { pdqOfImage } from "../../lib/fingerprint/node";
import { synthesize } from "../../lib/fingerprint/testing/synthetic-images";
import { seedConsumer } from "../accounts";
import { expect, logIn, test } from "./support";

const VECTORS = path.resolve("lib/fingerprint/testing/vectors/threatexchange-pdq");

async function photoFile(dir: string, name: string, seed: number, transform?: (s: Sharp) => Sharp) {
  const px = synthesize({ kind: "photo", seed, width: 1200, height: 900 });
  let img = sharp(px.data, { raw: { width: 1200, height: 900, channels: 3 } });
  if (transform) img = transform(img);
  const file = path.join(dir, name);
  fs.writeFileSync(file, await img.jpeg({ quality: 90 }).toBuffer());
  return file;
}

test("a protected photo is found on /check from a resized copy, and not from an unrelated one", async ({ page }, testInfo) => {
  const dir = testInfo.outputPath();
  fs.mkdirSync(dir, { recursive: true });
  const tag = randomUUID().slice(0, 6);
  const seed = 5000 + Math.floor(Math.random() * 1e6);
  const original = await photoFile(dir, `harbour-${tag}.jpg`, seed);
  const resized = await photoFile(dir, `harbour-small-${tag}.jpg`, seed, (s) => s.resize(600));
  const unrelated = await photoFile(dir, `other-${tag}.jpg`, seed + 1);

  const creator = await seedConsumer({ name: `Petra Photographer ${tag}` });
  await logIn(page, creator);
  await page.goto("/dashboard");
  await page.getByLabel("Choose files").setInputFiles(original);
  const c = page.getByRole("region", { name: path.basename(original), exact: true });
  await c.getByRole("radio", { name: "Public", exact: true }).check();
  await c.getByLabel("Title").fill(`Harbour at dawn ${tag}`);
  await c.getByRole("button", { name: "Protect", exact: true }).click();
  await expect(c.getByRole("heading", { name: "Protected" })).toBeVisible();
  const id = (await c.getByRole("link", { name: /\/verify\// }).getAttribute("href"))!.split("/").pop()!;

  // The fingerprint the browser minted is the one Node computes from the same file, bit for bit.
  const pub = await (await page.request.get(`/v1/protections/${id}`)).json();
  const node = await pdqOfImage(fs.readFileSync(original));
  expect(pub.fingerprints).toEqual([{ alg: "pdq", ...node }]);

  await page.goto("/check");
  await page.getByLabel("Choose a file to look up").setInputFiles(resized);
  const status = page.getByRole("status");
  await expect(status).toContainText("No one has publicly protected exactly this file");
  await expect(page.getByTestId("similar-summary")).toContainText("1 publicly protected picture looks like this one");
  await expect(page.getByTestId("similar-summary")).toContainText("A similar picture is not proof of copying");
  const similar = page.getByTestId("similar-list").getByRole("listitem");
  await expect(similar).toHaveCount(1);
  await expect(similar).toContainText(`Visually similar to “Harbour at dawn ${tag}” by Petra Photographer ${tag}, protected on`);
  const distance = pdqDistance(node.hash, (await pdqOfImage(fs.readFileSync(resized))).hash);
  await expect(similar).toContainText(`PDQ distance ${distance} of 256`);
  await expect(page.getByRole("img", { name: "The file you dropped" })).toBeVisible();

  await page.getByLabel("Choose a file to look up").setInputFiles(unrelated);
  await expect(page.getByTestId("similar-summary")).toContainText("no publicly protected picture looks like this one");
  await expect(page.getByTestId("similar-list")).toHaveCount(0);

  // The verify page: not the attested bytes, but a picture that looks like it.
  await page.goto(`/verify/${id}`);
  await page.getByLabel("Check your file").setInputFiles(resized);
  await expect(page.getByText("Your file does not match this protection")).toBeVisible();
  await expect(page.getByTestId("picture-verdict")).toContainText(`looks like the protected one (PDQ distance ${distance} of 256`);
  await page.getByLabel("Check your file").setInputFiles(original);
  await expect(page.getByText("Your file matches this protection")).toBeVisible();
});

test("the browser's PDQ of the reference's images is Node's bit for bit, and within the reference's tolerance of the reference's own", async ({
  page,
}) => {
  const expected = JSON.parse(fs.readFileSync(path.join(VECTORS, "expected.json"), "utf8")) as {
    file: string;
    reference_decoding: { hash: string; quality: number } | null;
  }[];
  await page.goto("/check");
  const report: string[] = [];
  for (const e of expected) {
    const file = path.join(VECTORS, e.file);
    await page.getByLabel("Choose a file to look up").setInputFiles(file);
    const status = page.getByRole("status");
    await expect(status).toContainText(/pdq:[0-9a-f]{64} \(quality \d+\)/);
    const m = /pdq:([0-9a-f]{64}) \(quality (\d+)\)/.exec((await status.textContent()) ?? "")!;
    const node = await pdqOfImage(fs.readFileSync(file));
    const toNode = pdqDistance(m[1]!, node.hash);
    const toReference = e.reference_decoding ? pdqDistance(m[1]!, e.reference_decoding.hash) : null;
    report.push(`${e.file}: browser–Node ${toNode}, browser–reference ${toReference}`);
    if (e.reference_decoding && e.reference_decoding.quality >= 80) expect(toReference, e.file).toBeLessThanOrEqual(10);
    // Chromium and sharp both decode with libjpeg-turbo, libpng and libwebp: the same pixels, the same bits.
    expect({ hash: m[1], quality: Number(m[2]) }, e.file).toEqual(node);
  }
  console.log(report.join("\n"));
});

test("a creator's list shows a picture's fingerprint and the similar works protected before it", async ({ page }, testInfo) => {
  const dir = testInfo.outputPath();
  fs.mkdirSync(dir, { recursive: true });
  const tag = randomUUID().slice(0, 6);
  const seed = 5000 + Math.floor(Math.random() * 1e6);
  const original = await photoFile(dir, `lake-${tag}.jpg`, seed);
  const copy = await photoFile(dir, `lake-copy-${tag}.jpg`, seed, (s) => s.resize(800));
  // Someone protected the original privately, then someone else publicly (over the API, fingerprinted in Node).
  const mintOriginal = async (name: string, visibility: string) => {
    const owner = await seedConsumer({ name });
    const minted = await fetch(`${process.env.HALLMARK_TEST_BASE_URLS!.split(",")[0]}/v1/consumer/mint`, {
      method: "POST",
      headers: { "x-api-key": owner.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        content_hash: createHash("sha256").update(fs.readFileSync(original)).digest("hex"),
        title: `Lake ${tag}`,
        visibility,
        fingerprints: [{ alg: "pdq", ...(await pdqOfImage(fs.readFileSync(original))) }],
      }),
    });
    expect(minted.status).toBe(201);
  };
  await mintOriginal(`Hidden Hannah ${tag}`, "private");
  await mintOriginal(`Olga Original ${tag}`, "public");

  const second = await seedConsumer({ name: `Carl Copy ${tag}` });
  await logIn(page, second);
  await page.goto("/dashboard");
  await page.getByLabel("Choose files").setInputFiles(copy);
  const c = page.getByRole("region", { name: path.basename(copy), exact: true });
  await c.getByRole("button", { name: "Protect", exact: true }).click();
  await expect(c.getByRole("heading", { name: "Protected" })).toBeVisible();

  await page.goto("/dashboard/protections");
  const row = page.getByRole("article", { name: `lake-copy-${tag}` });
  const mine = await pdqOfImage(fs.readFileSync(copy));
  await expect(row).toContainText(`PDQ ${mine.hash.slice(0, 16)}… (quality ${mine.quality})`);
  await row.getByRole("button", { name: /Similar works protected earlier/ }).click();
  const found = row.getByTestId("similar-earlier");
  await expect(found).toContainText("Visually similar pictures protected publicly before this one");
  await expect(found).toContainText(`“Lake ${tag}” by Olga Original ${tag}`);
  // The private protection, earlier still, is someone else's alone: nothing of it, not even that it exists.
  await expect(found.getByRole("listitem")).toHaveCount(1);
  await expect(found).not.toContainText("private");
  await expect(found).not.toContainText(`Hidden Hannah ${tag}`);
});

test("a picture that cannot be fingerprinted says why, and its bytes are still looked up", async ({ page }, testInfo) => {
  const dir = testInfo.outputPath();
  fs.mkdirSync(dir, { recursive: true });
  const whole = await photoFile(dir, `whole-${randomUUID().slice(0, 6)}.jpg`, 77);
  const truncated = path.join(dir, "truncated.jpg");
  const bytes = fs.readFileSync(whole);
  fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  // A PNG whose header promises 20000 × 20000 pixels: refused before anything is decoded.
  const bomb = path.join(dir, "bomb.png");
  fs.writeFileSync(
    bomb,
    await sharp({ create: { width: 64, height: 64, channels: 3, background: "#888" } })
      .png()
      .toBuffer(),
  );
  const b = fs.readFileSync(bomb);
  b.writeUInt32BE(20_000, 16);
  b.writeUInt32BE(20_000, 20);
  fs.writeFileSync(bomb, b);

  await page.goto("/check");
  const status = page.getByRole("status");
  await page.getByLabel("Choose a file to look up").setInputFiles(truncated);
  await expect(status).toContainText("No one has publicly protected this file with Hallmark");
  await expect(status).toContainText("The image file is cut short: its end is missing.");
  await page.getByLabel("Choose a file to look up").setInputFiles(bomb);
  await expect(status).toContainText("The image is 20000×20000 (400 megapixels); images up to 50 megapixels are fingerprinted.");
  await expect(status).not.toContainText("pdq:");
});
