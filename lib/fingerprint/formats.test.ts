// Every format fingerprinted decodes to the picture it holds: the same photo as PNG, WebP,
// AVIF, GIF and JPEG gives the PNG's hash or one close to it (lossy and palette formats change
// pixels a little), and an animated GIF gives its first frame's.
import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { inspectImage, sniffImage } from "./image-file";
import { pdqOfImage } from "./node";
import { pdqDistance, pdqOfPixels } from "./pdq";
import { synthesize } from "./testing/synthetic-images";

const W = 480;
const H = 360;
const raw = (seed: number) =>
  sharp(synthesize({ kind: "photo", seed, width: W, height: H }).data, { raw: { width: W, height: H, channels: 3 } });

describe("formats", () => {
  it.each([
    ["webp", (s: Sharp) => s.webp({ lossless: true }), 0],
    ["avif", (s: Sharp) => s.avif({ quality: 80 }), 12],
    ["gif", (s: Sharp) => s.gif(), 12],
    ["jpeg", (s: Sharp) => s.jpeg({ quality: 90 }), 8],
  ] as const)("%s gives the PNG's picture", async (format, encode, within) => {
    const png = await raw(80).png().toBuffer();
    const file = await encode(raw(80)).toBuffer();
    expect(sniffImage(file.subarray(0, 64)), format).toBe(true);
    expect(inspectImage(file)).toMatchObject({ format: format === "jpeg" ? "jpg" : format, width: W, height: H });
    const d = pdqDistance((await pdqOfImage(file)).hash, (await pdqOfImage(png)).hash);
    expect(d).toBeLessThanOrEqual(within);
  });

  it("takes an animated GIF's first frame", async () => {
    const frames = [81, 82, 83].map((seed) => synthesize({ kind: "photo", seed, width: W, height: H }).data);
    const strip = Buffer.concat(frames.map((f) => Buffer.from(f)));
    const gif = await sharp(strip, { raw: { width: W, height: H * 3, channels: 3, pageHeight: H } as never })
      .gif({ delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(gif, { pages: -1 }).metadata()).pages).toBe(3);
    const first = pdqOfPixels({ width: W, height: H, channels: 3, data: frames[0]! });
    const second = pdqOfPixels({ width: W, height: H, channels: 3, data: frames[1]! });
    const ours = await pdqOfImage(gif);
    expect(pdqDistance(ours.hash, first.hash)).toBeLessThanOrEqual(12);
    expect(pdqDistance(ours.hash, second.hash)).toBeGreaterThan(31);
  });

  it("sniffs only the formats fingerprinted", () => {
    expect(sniffImage(new TextEncoder().encode("%PDF-1.7 ..."))).toBe(false);
    expect(sniffImage(new Uint8Array([0x42, 0x4d, 0, 0]))).toBe(false); // BMP
    expect(sniffImage(new Uint8Array(0))).toBe(false);
  });
});
