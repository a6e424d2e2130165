// The pictures of our own that the PDQ implementation is compared on with the reference C++
// hasher (expected hashes in vectors/own-images.json, computed by the reference from the same
// bytes): photos, drawings, screenshots; tiny, wide, tall and 12-megapixel; greyscale and alpha.
import type { SyntheticSpec } from "./synthetic-images";

export const OWN_IMAGES: Record<string, SyntheticSpec> = {
  "photo-640x480": { kind: "photo", seed: 1, width: 640, height: 480 },
  "photo-512x512": { kind: "photo", seed: 2, width: 512, height: 512 },
  "photo-1024x683": { kind: "photo", seed: 3, width: 1024, height: 683 },
  "photo-64x64": { kind: "photo", seed: 4, width: 64, height: 64 },
  "photo-grey-800x600": { kind: "photo", seed: 5, width: 800, height: 600, channels: 1 },
  "photo-alpha-600x400": { kind: "photo", seed: 6, width: 600, height: 400, channels: 4 },
  "drawing-800x600": { kind: "drawing", seed: 7, width: 800, height: 600 },
  "drawing-4032x3024": { kind: "drawing", seed: 8, width: 4032, height: 3024 },
  "drawing-grey-300x300": { kind: "drawing", seed: 9, width: 300, height: 300, channels: 1 },
  "screenshot-1280x800": { kind: "screenshot", seed: 10, width: 1280, height: 800 },
  "screenshot-alpha-390x844": { kind: "screenshot", seed: 11, width: 390, height: 844, channels: 4 },
  "wide-3000x200": { kind: "photo", seed: 12, width: 3000, height: 200 },
  "tall-150x2000": { kind: "drawing", seed: 13, width: 150, height: 2000 },
  "tiny-5x5": { kind: "photo", seed: 14, width: 5, height: 5 },
  "tiny-9x6": { kind: "photo", seed: 15, width: 9, height: 6 },
  "tiny-4x4": { kind: "photo", seed: 16, width: 4, height: 4 },
  "tiny-1x1": { kind: "photo", seed: 17, width: 1, height: 1 },
};
