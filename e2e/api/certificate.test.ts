// @hallmark-test db=sqlite lane=main
// GET /v1/protections/{id}/certificate.pdf: a PDF that opens (poppler renders it), states the
// protection as its verify link does, and carries its proofs as attachments that the CLI verifies
// by themselves; a private protection's certificate says nothing its verify link does not, and a
// certificate whose page and attachments disagree, or that carries no proof, fails.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cli } from "../cli";
import { api, baseUrl, expectProblem, logKey, mint, randomContentHash } from "./helpers";
import { verdict } from "./verdict";
import { seedConsumer } from "../accounts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-certificate-"));
/** A client address of its own: certificates are limited per address, and other tests spend the shared one. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const run = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: "utf8" });
const verify = (...args: string[]) => spawnSync(...cli("verify", ...args), { encoding: "utf8" });

async function minted(body: Record<string, unknown>) {
  const creator = await seedConsumer({ name: "Certified Créatrice" });
  const res = await mint(creator.apiKey, { content_hash: randomContentHash(), ...body });
  expect(res.status, res.text).toBe(201);
  return { ...(res.body as { protection_id: string; content_hash: string; verify_url: string }), creator };
}

/** Downloads a certificate to a file, checking the answer's headers. */
async function download(id: string, key?: string): Promise<string> {
  const headers: Record<string, string> = { "x-forwarded-for": newClient(), ...(key ? { "x-api-key": key } : {}) };
  const res = await fetch(`${baseUrl}/v1/protections/${id}/certificate.pdf`, { headers });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="hallmark-certificate-${id}.pdf"`);
  const file = path.join(dir, `${id}.pdf`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const logPem = async () => {
  const file = path.join(dir, "log.pem");
  fs.writeFileSync(file, await logKey());
  return file;
};

/** Everything a reader of the PDF can get at: its text, its metadata and its attachments' bytes. */
function contents(file: string) {
  const text = run("pdftotext", "-layout", file, "-");
  expect(text.status, text.stderr).toBe(0);
  const info = run("pdfinfo", file);
  expect(info.status, info.stderr).toBe(0);
  const out = fs.mkdtempSync(path.join(dir, "attachments-"));
  const detach = run("pdfdetach", "-saveall", "-o", out, file);
  expect(detach.status, detach.stderr).toBe(0);
  const attachments = Object.fromEntries(fs.readdirSync(out).map((n) => [n, fs.readFileSync(path.join(out, n), "utf8")]));
  return { text: text.stdout, info: info.stdout, attachments, all: text.stdout + info.stdout + Object.values(attachments).join("") };
}

/** A PDF made by another program (pdfkit, as an attacker would): these pages and attachments. */
async function forged(file: string, page: string, attachments: Record<string, string>) {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => doc.on("end", r));
  doc.text(page);
  for (const [name, text] of Object.entries(attachments)) doc.file(Buffer.from(text), { name });
  doc.end();
  await ended;
  fs.writeFileSync(file, Buffer.concat(chunks));
}

describe("certificates", () => {
  it("opens, states the protection and verifies offline from its own attachments", async () => {
    const title = "Ørsted fjord at dawn — “first light”";
    const p = await minted({
      title,
      description: "Shot on film.",
      file_name: "fjord.jpg",
      content_type: "image/jpeg",
      file_size: 2_345_678,
      visibility: "public",
    });
    const file = await download(p.protection_id);
    expect(fs.readFileSync(file).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // It opens: poppler renders its one A4 page, and the page is not blank.
    const png = path.join(dir, p.protection_id);
    const render = run("pdftoppm", "-png", "-r", "50", "-singlefile", file, png);
    expect(render.status, render.stderr).toBe(0);
    const { data, info } = await sharp(`${png}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([414, 585]); // A4 at 50 dpi
    const dark = data.filter((v) => v < 128).length;
    expect(dark / data.length).toBeGreaterThan(0.02);

    // Its QR code, read from the rendered page by an independent decoder, is the verify URL.
    const sharp150 = path.join(dir, `${p.protection_id}-150`);
    expect(run("pdftoppm", "-png", "-r", "150", "-singlefile", file, sharp150).status).toBe(0);
    const rgba = await sharp(`${sharp150}.png`).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const qr = jsQR(new Uint8ClampedArray(rgba.data), rgba.info.width, rgba.info.height);
    expect(qr?.data).toBe(p.verify_url);

    const c = contents(file);
    // A line may break after a hyphen (inside a URL's UUID, say): such a break is no space.
    const text = c.text.replace(/-\s+/g, "-").replace(/\s+/g, " ");
    for (const fact of [title, "Certified Créatrice", "fjord.jpg · image/jpeg · 2.2 MiB", p.content_hash, p.verify_url])
      expect(text).toContain(fact);
    // The verify URL is a link wherever it is drawn (the QR code and the text).
    expect(fs.readFileSync(file, "latin1").split(`/URI (${p.verify_url})`).length - 1).toBeGreaterThanOrEqual(2);
    expect(c.info).toMatch(/PDF version:\s+1\.7/);
    expect(c.info).toContain(`Title:           Certificate of protection: ${title}`);
    expect(Object.keys(c.attachments).sort()).toEqual([`${p.protection_id}.tlog-proof`, "proof-bundle.json"]);
    const bundle = JSON.parse(c.attachments["proof-bundle.json"]!);
    expect(bundle.attestation.payload.content_hash).toBe(`sha256:${p.content_hash}`);
    expect(bundle.attestation.payload.protection_id).toBe(p.protection_id);

    const ok = verify(file, "--log-key", await logPem());
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`pass certificate_text: the page states SHA-256 ${p.content_hash}`);
    expect(ok.stdout).toMatch(/OK certificate .*: its proofs verify by themselves/);
    // Its attachments are standard files: the detached tlog-proof verifies on its own too.
    const proof = path.join(dir, `${p.protection_id}.tlog-proof`);
    fs.writeFileSync(proof, c.attachments[`${p.protection_id}.tlog-proof`]!);
    const alone = verify(proof, "--log-key", await logPem());
    expect(alone.status, alone.stdout + alone.stderr).toBe(0);
  });

  it("of a private protection is its owner's alone, and verifies by itself with the opening of its sealed entry", async () => {
    const secret = `secret-${randomContentHash().slice(0, 12)}`;
    const p = await minted({
      title: secret,
      description: secret,
      file_name: `${secret}.png`,
      content_type: "image/x-secret",
      file_size: 987_654_321,
      visibility: "private",
    });
    const stranger = await seedConsumer();
    for (const key of [undefined, stranger.apiKey]) {
      const res = await api(`/v1/protections/${p.protection_id}/certificate.pdf`, { key, headers: { "x-forwarded-for": newClient() } });
      expectProblem(res, 404, "not_found");
      expect(res.text).not.toContain(secret);
    }
    const c = contents(await download(p.protection_id, p.creator.apiKey));
    expect(c.text).toContain(secret);
    expect(c.text).toContain(p.content_hash);
    expect(JSON.parse(c.attachments["proof-bundle.json"]!).seal.leaf.payload.type).toBe("hallmark.sealed/v2");
    const ok = verify(path.join(dir, `${p.protection_id}.pdf`), "--log-key", await logPem());
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain("pass seal_opening");
  });

  it("fails a certificate whose page and proofs disagree, that carries no proof, or that another log signed", async () => {
    const p = await minted({ title: "Genuine", visibility: "public" });
    const c = contents(await download(p.protection_id));
    const key = await logPem();
    const other = randomContentHash();
    const lied = path.join(dir, "lied.pdf");
    await forged(lied, `SHA-256 ${other}, recorded as entry 0 of the log`, c.attachments);
    const mismatch = verify(lied, "--log-key", key);
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toContain("FAIL certificate_mismatch");

    // The true hash and entry, and beside them a hash the proofs do not prove.
    const entry = JSON.parse(c.attachments["proof-bundle.json"]!).attestation.log_index;
    const padded = path.join(dir, "padded.pdf");
    await forged(padded, `SHA-256 ${p.content_hash}, recorded as entry ${entry} of the log; SHA-256 ${other}`, c.attachments);
    expect(await verdict(padded, { logKey: key })).toBe(
      `FAIL certificate_mismatch: the page shows the hash ${other}, which its attachments do not prove`,
    );

    const bare = path.join(dir, "bare.pdf");
    await forged(bare, `SHA-256 ${p.content_hash}`, {});
    expect(await verdict(bare, { logKey: key })).toBe("FAIL malformed_certificate: the PDF has no proof-bundle.json attachment");

    const wrongKey = path.join(dir, "other-log.pem");
    fs.writeFileSync(
      wrongKey,
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAMJ5+2NrahNrfmoqCEWR74tc0gwtKh9ATDdFAlvkfTwU=\n-----END PUBLIC KEY-----\n",
    );
    expect(await verdict(path.join(dir, `${p.protection_id}.pdf`), { logKey: wrongKey })).toMatch(/^FAIL checkpoint_signature_invalid: /);

    const notPdf = path.join(dir, "not.pdf");
    fs.writeFileSync(notPdf, "%PDF-1.7\nthis is not a PDF");
    const broken = verify(notPdf, "--log-key", key);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("FAIL malformed_certificate");
  });

  it("limits each client address, with RateLimit headers, whether or not a key is sent", async () => {
    const client = newClient();
    const id = "0190a0a0-0000-7000-8000-000000000000";
    const first = await api(`/v1/protections/${id}/certificate.pdf`, { headers: { "x-forwarded-for": client } });
    expectProblem(first, 404, "not_found");
    const quota = Number(/"certificate";q=(\d+);w=60/.exec(first.headers.get("ratelimit-policy") ?? "")?.[1]);
    expect(quota).toBe(60);
    const rest = await Promise.all(
      Array.from({ length: quota }, () => api(`/v1/protections/${id}/certificate.pdf`, { headers: { "x-forwarded-for": client } })),
    );
    const refused = rest.filter((r) => r.status === 429);
    expect(refused).toHaveLength(1);
    expectProblem(refused[0]!, 429, "rate_limited");
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
    const { apiKey } = await seedConsumer();
    const keyed = await api(`/v1/protections/${id}/certificate.pdf`, { key: apiKey, headers: { "x-forwarded-for": client } });
    expectProblem(keyed, 429, "rate_limited");
    expectProblem(
      await api(`/v1/protections/${id}/certificate.pdf`, { key: apiKey, headers: { "x-forwarded-for": newClient() } }),
      404,
      "not_found",
    );
  });

  it("answers an unknown or malformed id with a problem", async () => {
    const headers = { "x-forwarded-for": newClient() };
    expectProblem(await api("/v1/protections/0190a0a0-0000-7000-8000-000000000000/certificate.pdf", { headers }), 404, "not_found");
    expectProblem(await api("/v1/protections/not-an-id/certificate.pdf", { headers }), 404, "not_found");
  });
});
