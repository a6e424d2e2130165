// What fingerprinting costs a visitor: in Chromium, the pages' own code (sha256File and
// pdqOfFile, bundled by esbuild) on a 12-megapixel JPEG, PDQ's time against the SHA-256's of the
// same file in the same page, in turns. Part of `npm run bench -- --only lookup`.
import fs from "node:fs";
import http from "node:http";
import { build } from "esbuild";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { synthesize } from "../lib/fingerprint/testing/synthetic-images";

const ROUNDS = 7;

const ENTRY = `
import { sha256File } from "./app/_components/sha256-file";
import { pdqOfFile } from "./lib/fingerprint/browser";
window.measure = async (bytes, rounds) => {
  const file = new File([bytes], "photo.jpg", { type: "image/jpeg" });
  const out = { sha256: [], pdq: [], hash: null };
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    await sha256File(file);
    out.sha256.push(performance.now() - t);
    t = performance.now();
    const r = await pdqOfFile(file);
    out.pdq.push(performance.now() - t);
    out.hash = r.pdq;
  }
  return out;
};
`;

export async function browserFingerprintBench(): Promise<string[]> {
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    format: "esm",
    write: false,
    alias: { "@": process.cwd() },
  });
  const script = bundle.outputFiles[0]!.text;
  const server = http.createServer((req, res) => {
    if (req.url === "/bench.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  const width = 4032;
  const height = 3024;
  const px = synthesize({ kind: "photo", seed: 12, width, height });
  const jpeg = await sharp(px.data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const browser = await chromium.launch({
    // The browser suite's: HALLMARK_CHROMIUM, else Debian's headless shell, else the full browser.
    executablePath:
      process.env.HALLMARK_CHROMIUM ??
      ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p)) ??
      "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => "measure" in window);
    const r = await page.evaluate(
      async ({ b64, rounds }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        return (window as unknown as { measure: (b: Uint8Array, n: number) => Promise<{ sha256: number[]; pdq: number[] }> }).measure(
          bytes,
          rounds,
        );
      },
      { b64: jpeg.toString("base64"), rounds: ROUNDS },
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratios = r.pdq.map((p, i) => p / r.sha256[i]!);
    return [
      `browser fingerprinting, a 12-megapixel JPEG (${width}×${height}, ${(jpeg.length / 1e6).toFixed(1)} MB) in Chromium, median of ${ROUNDS} turns: SHA-256 ${median(r.sha256).toFixed(0)} ms, PDQ (decode and hash) ${median(r.pdq).toFixed(0)} ms, PDQ/SHA-256 ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
    ];
  } finally {
    await browser.close();
    server.close();
  }
}
