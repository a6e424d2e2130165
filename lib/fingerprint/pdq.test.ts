// PDQ against the reference C++ hasher (facebook/ThreatExchange pdq/cpp, BSD; images and licence
// in testing/vectors/threatexchange-pdq). How the expected hashes were made: the reference was
// built from its sources with its CImg decoder (libjpeg, libpng) and run two ways on each file:
// fed the RGB bytes sharp decodes (the reference's criterion 1: the same bytes must give the same
// hash), and on the file itself with its own decoding (criterion 2: within distance 10 where the
// quality is ≥ 80). `published` hashes are those the reference's Python tests list (made with
// PIL's decoding and resizing; their tolerance is 16). Our own images (testing/own-images.ts)
// were fed to the reference the same way, greyscale as one channel, alpha flattened over white.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeImage } from "./node";
import { pdqDistance, pdqDistanceBytes, pdqOfLuma, pdqOfPixels, pdqSourceRows, type Pixels } from "./pdq";
import { OWN_IMAGES } from "./testing/own-images";
import { synthesize } from "./testing/synthetic-images";

const VECTORS = path.join(__dirname, "testing/vectors");
const TE = path.join(VECTORS, "threatexchange-pdq");

interface Expected {
  file: string;
  width: number;
  height: number;
  reference: { hash: string; quality: number };
  reference_decoding: { hash: string; quality: number } | null;
  published: string | null;
}
const expected = JSON.parse(fs.readFileSync(path.join(TE, "expected.json"), "utf8")) as Expected[];
const own = JSON.parse(fs.readFileSync(path.join(VECTORS, "own-images.json"), "utf8")) as Record<string, { hash: string; quality: number }>;

async function rgbOf(file: string): Promise<Pixels> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data };
}

describe("PDQ on the reference's images", () => {
  it("has the reference's vectors", () => {
    expect(expected.length).toBe(19);
    expect(expected.filter((e) => e.published).length).toBeGreaterThanOrEqual(9);
    expect(expected.filter((e) => e.reference_decoding).length).toBe(19);
  });

  it.each(expected.map((e) => [e.file, e] as const))("%s: the reference's hash from the same bytes, exactly", async (_, e) => {
    const px = await rgbOf(path.join(TE, e.file));
    expect([px.width, px.height]).toEqual([e.width, e.height]);
    expect(pdqOfPixels(px)).toEqual(e.reference);
  });

  it.each(expected.map((e) => [e.file, e] as const))("%s: decoded our way, within the reference's tolerances", async (_, e) => {
    const ours = pdqOfPixels(await decodeImage(fs.readFileSync(path.join(TE, e.file))));
    const ref = e.reference_decoding;
    if (ref && ref.quality >= 80) expect(pdqDistance(ours.hash, ref.hash)).toBeLessThanOrEqual(10);
    if (ref) expect(Math.abs(ours.quality - ref.quality)).toBeLessThanOrEqual(5);
    if (e.published) expect(pdqDistance(ours.hash, e.published)).toBeLessThanOrEqual(16);
  });
});

describe("PDQ on our own images", () => {
  it.each(Object.entries(OWN_IMAGES))("%s: the reference's hash and quality", (name, spec) => {
    expect(pdqOfPixels(synthesize(spec))).toEqual(own[name]);
  });

  it("tells different pictures apart and matches a picture with itself", () => {
    const a = own["photo-640x480"]!.hash;
    expect(pdqDistance(a, a)).toBe(0);
    for (const [name, h] of Object.entries(own))
      if (name !== "photo-640x480" && h.quality > 49) expect(pdqDistance(a, h.hash)).toBeGreaterThan(31);
  });
});

describe("PDQ's contracts", () => {
  it("reads RGBA with opaque alpha as RGB, and grey as given", () => {
    const rgb = synthesize({ kind: "photo", seed: 40, width: 300, height: 200 });
    const rgba = new Uint8Array(300 * 200 * 4);
    for (let i = 0, j = 0; j < rgb.data.length; i += 4, j += 3) rgba.set([...rgb.data.subarray(j, j + 3), 255], i);
    expect(pdqOfPixels({ width: 300, height: 200, channels: 4, data: rgba })).toEqual(pdqOfPixels(rgb));
  });

  it.each([
    [2000, 1500],
    [300, 1200],
    [1200, 300],
    [513, 512],
  ])("gives the same hash from only the rows it reads of a %i×%i image", (width, height) => {
    const px = synthesize({ kind: "photo", seed: 41, width, height, channels: 4 });
    const rows = pdqSourceRows(width, height);
    expect(rows).toHaveLength(512);
    const data = new Uint8Array(width * 512 * 4);
    for (const [i, y] of rows.entries()) data.set(px.data.subarray(y * width * 4, (y + 1) * width * 4), i * width * 4);
    expect(pdqOfPixels({ width, height: 512, channels: 4, data, presampledRows: true })).toEqual(pdqOfPixels(px));
  });

  it("answers the zero hash with quality 0 below 5 rows or columns, as the reference", () => {
    expect(pdqOfLuma(new Float32Array(4 * 100), 4, 100)).toEqual({ hash: "0".repeat(64), quality: 0 });
    expect(pdqOfLuma(new Float32Array(100 * 4), 100, 4)).toEqual({ hash: "0".repeat(64), quality: 0 });
  });

  it("gives a featureless image quality 0", () => {
    const flat = new Uint8Array(200 * 200 * 3).fill(128);
    expect(pdqOfPixels({ width: 200, height: 200, channels: 3, data: flat }).quality).toBe(0);
  });

  it("refuses pixel data shorter than its dimensions", () => {
    expect(() => pdqOfPixels({ width: 10, height: 10, channels: 3, data: new Uint8Array(299) })).toThrow(RangeError);
  });

  it("counts distance bit by bit", () => {
    const zero = "0".repeat(64);
    expect(pdqDistance(zero, "f".repeat(64))).toBe(256);
    expect(pdqDistance(zero, `8${"0".repeat(62)}1`)).toBe(2);
    expect(pdqDistance("0123456789abcdef".repeat(4), zero)).toBe(4 * 32);
    expect(pdqDistance("0123456789abcdef".repeat(4), "fedcba9876543210".repeat(4))).toBe(256);
  });

  it("counts the same distance from the hashes' bytes as from their hex", () => {
    const bytes = (hex: string) => Buffer.from(hex, "hex");
    const zero = "0".repeat(64);
    expect(pdqDistanceBytes(bytes(zero), bytes("f".repeat(64)))).toBe(256);
    expect(pdqDistanceBytes(bytes(zero), bytes(`8${"0".repeat(62)}1`))).toBe(2);
    for (let i = 0; i < 200; i++) {
      const [a, b] = [randomBytes(32), randomBytes(32)];
      expect(pdqDistanceBytes(a, b)).toBe(pdqDistance(a.toString("hex"), b.toString("hex")));
    }
  });
});

describe("EXIF orientation", () => {
  // The stored pixels, turned the way orientation n says (EXIF 2.32, table "Orientation").
  function oriented(px: Pixels, n: number): Pixels {
    const { width: w, height: h, channels: c, data } = px;
    const swap = n >= 5;
    const W = swap ? h : w;
    const H = swap ? w : h;
    const out = new Uint8Array(W * H * c);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let sx: number;
        let sy: number;
        if (n === 1) [sx, sy] = [x, y];
        else if (n === 2) [sx, sy] = [w - 1 - x, y];
        else if (n === 3) [sx, sy] = [w - 1 - x, h - 1 - y];
        else if (n === 4) [sx, sy] = [x, h - 1 - y];
        else if (n === 5) [sx, sy] = [y, x];
        else if (n === 6) [sx, sy] = [y, h - 1 - x];
        else if (n === 7) [sx, sy] = [w - 1 - y, h - 1 - x];
        else [sx, sy] = [w - 1 - y, x];
        out.set(data.subarray((sy * w + sx) * c, (sy * w + sx + 1) * c), (y * W + x) * c);
      }
    }
    return { width: W, height: H, channels: c, data: out };
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("orientation %i: the hash of the picture as displayed", async (n) => {
    const src = synthesize({ kind: "photo", seed: 50, width: 240, height: 160 });
    const jpeg = await sharp(src.data, { raw: { width: 240, height: 160, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: n })
      .toBuffer();
    const stored = await sharp(jpeg).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const storedPx: Pixels = { width: stored.info.width, height: stored.info.height, channels: 4, data: stored.data };
    const shown = await decodeImage(jpeg);
    expect([shown.width, shown.height]).toEqual(n >= 5 ? [160, 240] : [240, 160]);
    expect(pdqOfPixels(shown)).toEqual(pdqOfPixels(oriented(storedPx, n)));
  });
});
