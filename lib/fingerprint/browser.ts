// PDQ of an image file in the browser (a Web Worker): decoded by the browser itself as it would
// display it (EXIF orientation applied, colours converted to sRGB), then hashed by ./pdq.ts. The
// header is checked first (./image-file.ts), so a bomb or a truncated file is refused before any
// pixel is decoded, and of an image larger than 512 on a side only the 512 rows the hash reads
// are copied out of the canvas.
import { ImageFileError, inspectImage, MAX_IMAGE_BYTES, sniffImage } from "./image-file";
import { type PdqHash, pdqOfPixels, pdqSourceRows } from "./pdq";

/** What a file gets: a PDQ hash, or why not (null when it is not an image at all). */
export type PdqOutcome = { pdq: PdqHash; note: null } | { pdq: null; note: string | null };

/** The PDQ hash of a file that is an image; `note` says why an image could not be hashed. */
export async function pdqOfFile(file: Blob): Promise<PdqOutcome> {
  if (!sniffImage(new Uint8Array(await file.slice(0, 64).arrayBuffer()))) return { pdq: null, note: null };
  try {
    if (file.size > MAX_IMAGE_BYTES)
      throw new ImageFileError("image_too_large", `The image file is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB.`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { format } = inspectImage(bytes);
    return { pdq: await pdqOfImageBytes(bytes, format === "jpg"), note: null };
  } catch (err) {
    return { pdq: null, note: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * `opaque`: the format has no alpha (JPEG), so premultiplying is the identity and the decoder's
 * fast path may be taken (a JPEG decodes measurably faster without `premultiplyAlpha: "none"`:
 * docs/performance.md, "Similar-image lookup and fingerprinting"); any other format keeps its
 * alpha unpremultiplied for the flattening over white.
 */
async function pdqOfImageBytes(bytes: Uint8Array, opaque: boolean): Promise<PdqHash> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      imageOrientation: "from-image",
      premultiplyAlpha: opaque ? "default" : "none",
      colorSpaceConversion: "default",
    });
  } catch {
    throw new ImageFileError("image_unreadable", "This browser could not decode the image.");
  }
  try {
    const { width, height } = bitmap;
    const rows = pdqSourceRows(width, height);
    const all = rows.length === height && rows.every((r, i) => r === i);
    // Only the rows the hash reads are drawn, each copied 1:1 (no scaling, no smoothing) to the
    // next row of a canvas that holds just them.
    const canvas = new OffscreenCanvas(width, rows.length);
    const ctx = canvas.getContext("2d", { willReadFrequently: true, colorSpace: "srgb" });
    if (!ctx) throw new ImageFileError("image_unreadable", "This browser cannot read an image's pixels here.");
    ctx.imageSmoothingEnabled = false;
    if (all) ctx.drawImage(bitmap, 0, 0);
    else for (const [i, y] of rows.entries()) ctx.drawImage(bitmap, 0, y, width, 1, 0, i, width, 1);
    const data = ctx.getImageData(0, 0, width, rows.length).data;
    return all
      ? pdqOfPixels({ width, height, channels: 4, data })
      : pdqOfPixels({ width, height: rows.length, channels: 4, data, presampledRows: true });
  } finally {
    bitmap.close();
  }
}
