// What is refused before decoding: not an image, a decompression bomb, too many pixels, a cut file.
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ImageFileError, inspectImage, MAX_IMAGE_PIXELS } from "./image-file";
import { decodeImage, fingerprintBytes } from "./node";
import { synthesize } from "./testing/synthetic-images";

const crc32 = (b: Uint8Array) => {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
};
function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
  return Buffer.concat([head, body, crc]);
}
/** A grey PNG whose header claims width × height, with a tiny compressed body of zero rows. */
function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = deflateSync(Buffer.alloc(Math.min(height, 64) * (width + 1)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", rows),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof ImageFileError ? err.code : `other: ${String(err)}`;
  }
  return "accepted";
};

describe("image files refused before decoding", () => {
  it("refuses what is not an image", () => {
    expect(refusal(() => inspectImage(new TextEncoder().encode("hello, this is text")))).toBe("not_an_image");
    expect(refusal(() => inspectImage(new Uint8Array(0)))).toBe("not_an_image");
  });

  it("refuses a decompression bomb and a 100-megapixel image from their headers", async () => {
    const bomb = bombPng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(refusal(() => inspectImage(bomb))).toBe("image_too_large");
    expect(refusal(() => inspectImage(bombPng(10_000, 10_000)))).toBe("image_too_large");
    await expect(decodeImage(bomb)).rejects.toMatchObject({ code: "image_too_large" });
    expect(refusal(() => inspectImage(bombPng(7000, 7000)))).toBe("accepted");
    expect(7000 * 7000).toBeLessThan(MAX_IMAGE_PIXELS);
  });

  it("refuses a truncated JPEG, PNG, WebP and GIF, and accepts them whole", async () => {
    const px = synthesize({ kind: "photo", seed: 60, width: 200, height: 150 });
    const base = sharp(px.data, { raw: { width: 200, height: 150, channels: 3 } });
    for (const f of ["jpeg", "png", "webp", "gif"] as const) {
      const whole = await base.clone().toFormat(f).toBuffer();
      expect(
        refusal(() => inspectImage(whole)),
        f,
      ).toBe("accepted");
      expect(
        refusal(() => inspectImage(whole.subarray(0, Math.floor(whole.length * 0.6)))),
        f,
      ).toBe("image_truncated");
    }
  });

  it("fingerprints a file that is not an image as its SHA-256 alone, saying why", async () => {
    const bytes = new TextEncoder().encode("not an image");
    const r = await fingerprintBytes(bytes);
    expect(r.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(r.pdq).toBeNull();
    expect(r.refusal?.code).toBe("not_an_image");
  });
});
