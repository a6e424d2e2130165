// What is checked of an image file before any pixel is decoded, in the browser and in Node alike:
// its format, its dimensions from the header, and that it is whole. A decoder is never handed a
// file that would make it allocate more than MAX_IMAGE_PIXELS × 4 bytes (a decompression bomb is
// a small file whose header promises a huge image) or a truncated file (browsers decode those
// silently, painting the missing part grey, which would fingerprint a different picture).
import { imageSize } from "image-size";

/** The formats fingerprinted; the first frame of a GIF. */
export const FINGERPRINT_FORMATS = ["jpg", "png", "webp", "gif", "avif"] as const;
export type FingerprintFormat = (typeof FINGERPRINT_FORMATS)[number];

/** 50 megapixels: a 45 MP camera's photo passes; decoding it takes 200 MB. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Files larger than this are not decoded (the SHA-256 still covers them). */
export const MAX_IMAGE_BYTES = 100 * 1024 * 1024;

export type ImageRefusal = "not_an_image" | "image_too_large" | "image_truncated" | "image_unreadable";

/** Why a file gets no fingerprint, in words for people and a stable code. */
export class ImageFileError extends Error {
  constructor(
    readonly code: ImageRefusal,
    message: string,
  ) {
    super(message);
    this.name = "ImageFileError";
  }
}

export interface ImageHeader {
  format: FingerprintFormat;
  width: number;
  height: number;
  /** EXIF orientation (1–8) where the header has one. */
  orientation?: number;
}

const MEGAPIXELS = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} megapixels`;

/**
 * Whether a file's first bytes are those of a format fingerprinted (JPEG, PNG, GIF, WebP, AVIF):
 * so that a file that is not an image is never read whole for its fingerprint.
 */
export function sniffImage(head: Uint8Array): boolean {
  const ascii = (at: number, s: string) => [...s].every((c, i) => head[at + i] === c.charCodeAt(0));
  return (
    (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) ||
    (head[0] === 0x89 && ascii(1, "PNG")) ||
    ascii(0, "GIF8") ||
    (ascii(0, "RIFF") && ascii(8, "WEBP")) ||
    (ascii(4, "ftyp") && ["avif", "avis", "mif1", "msf1"].some((brand) => ascii(8, brand)))
  );
}

/** Reads an image file's header; throws ImageFileError for what must not be decoded. */
export function inspectImage(bytes: Uint8Array): ImageHeader {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new ImageFileError(
      "image_too_large",
      `The file is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB; no fingerprint is made of it.`,
    );
  }
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new ImageFileError("not_an_image", "The file is not an image this service can fingerprint (JPEG, PNG, WebP, GIF or AVIF).");
  }
  const format = (size.type === "jpeg" ? "jpg" : size.type === "heif" ? "avif" : size.type) as FingerprintFormat;
  if (!FINGERPRINT_FORMATS.includes(format)) {
    throw new ImageFileError(
      "not_an_image",
      `${(size.type ?? "This").toUpperCase()} images are not fingerprinted; JPEG, PNG, WebP, GIF and AVIF are.`,
    );
  }
  const { width, height } = size;
  if (!width || !height) throw new ImageFileError("image_unreadable", "The image's header gives no size.");
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageFileError(
      "image_too_large",
      `The image is ${width}×${height} (${MEGAPIXELS(width * height)}); images up to ${MEGAPIXELS(MAX_IMAGE_PIXELS)} are fingerprinted.`,
    );
  }
  if (!isWhole(format, bytes)) throw new ImageFileError("image_truncated", "The image file is cut short: its end is missing.");
  return { format, width, height, ...(size.orientation ? { orientation: size.orientation } : {}) };
}

// A file is whole when its format's end marker is there: JPEG's EOI (some encoders append bytes
// after it, so the tail is searched), PNG's IEND chunk, GIF's trailer, and a RIFF (WebP) or ISO
// BMFF (AVIF) file as long as its boxes say.
function isWhole(format: FingerprintFormat, b: Uint8Array): boolean {
  const n = b.length;
  switch (format) {
    case "jpg":
      for (let i = n - 2; i >= Math.max(2, n - 65536); i--) if (b[i] === 0xff && b[i + 1] === 0xd9) return true;
      return false;
    case "png":
      for (let i = n - 8; i >= Math.max(8, n - 4096); i--)
        if (b[i] === 0x49 && b[i + 1] === 0x45 && b[i + 2] === 0x4e && b[i + 3] === 0x44) return true;
      return false;
    case "gif":
      return b[n - 1] === 0x3b;
    case "webp":
      return n >= 12 && 8 + (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) <= n;
    case "avif": {
      let at = 0;
      while (at + 8 <= n) {
        const size = ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
        if (size === 0 || size === 1) return true; // to the end of the file; a 64-bit size
        if (size < 8) return false;
        at += size;
      }
      return at === n;
    }
  }
}
