// Fingerprints in Node, for integrators and the `npm run fingerprint` command: the file's SHA-256
// and, for an image, its PDQ hash. Pixels are decoded by sharp (libvips) the way a browser decodes
// them for the pages: EXIF orientation applied, colours in sRGB, 8-bit RGBA, the first frame of
// an animation; the hash is then the same code the browser runs (./pdq.ts).
import { createHash } from "node:crypto";
import sharp from "sharp";
import { ImageFileError, inspectImage, MAX_IMAGE_PIXELS } from "./image-file";
import { type PdqHash, type Pixels, pdqOfPixels } from "./pdq";

export interface FileFingerprints {
  sha256: string;
  /** Null where the file is not an image that can be fingerprinted (`refusal` says why). */
  pdq: PdqHash | null;
  refusal?: ImageFileError;
}

/** Decodes an image file to RGBA as displayed; throws ImageFileError for what cannot be. */
export async function decodeImage(bytes: Uint8Array): Promise<Pixels> {
  inspectImage(bytes);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error", pages: 1, page: 0 })
      .autoOrient()
      .toColourspace("srgb")
      .ensureAlpha()
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, channels: 4, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (err) {
    throw new ImageFileError("image_unreadable", `The image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** PDQ of an image file's bytes. */
export async function pdqOfImage(bytes: Uint8Array): Promise<PdqHash> {
  return pdqOfPixels(await decodeImage(bytes));
}

/** SHA-256 and, where the file is an image, PDQ. */
export async function fingerprintBytes(bytes: Uint8Array): Promise<FileFingerprints> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  try {
    return { sha256, pdq: await pdqOfImage(bytes) };
  } catch (err) {
    if (err instanceof ImageFileError) return { sha256, pdq: null, refusal: err };
    throw err;
  }
}
