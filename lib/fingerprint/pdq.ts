// PDQ, Meta's 256-bit perceptual image hash (facebook/ThreatExchange, pdq/; algorithm in
// hashing/hashing.pdf), from decoded pixels. Pure TypeScript with no dependency, so the same
// bits come out in a browser worker and in Node.
//
// Contract: given the same RGB bytes, the hash and quality are bit for bit those of the reference
// C++ hasher (pdq/cpp: pdqio.cpp's 512×512 nearest-neighbour resize of larger images, then
// hashing/pdqhashing.cpp and downscaling/downscaling.cpp). The reference computes in 32-bit
// floats, so every arithmetic step here is rounded with Math.fround in the reference's order.
// Decoding (JPEG, PNG, …) is the caller's: see ./pixels.ts.

/** A decoded image: `channels` bytes per pixel, row-major, no padding (RGBA from a canvas, RGB, or grey). */
export interface Pixels {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  data: Uint8Array | Uint8ClampedArray;
  /**
   * Set when `data` holds only the 512 rows pdqSourceRows names of a larger image (in order,
   * at full width), instead of every row.
   */
  presampledRows?: boolean;
}

export interface PdqHash {
  /** 64 lowercase hex digits: the reference's Hash256 format (bit 255 first). */
  hash: string;
  /** 0–100; the reference suggests not matching hashes of quality ≤ 49. */
  quality: number;
}

/** The reference resizes anything wider or taller than this to exactly this square first. */
export const PDQ_DOWNSAMPLE_DIMS = 512;
/** Below this many rows or columns the reference answers the zero hash with quality 0. */
export const PDQ_MIN_HASHABLE_DIM = 5;

const f = Math.fround;
const LUMA_R = f(0.299);
const LUMA_G = f(0.587);
const LUMA_B = f(0.114);
const JAROSZ_PASSES = 2;

// 16×64 DCT-II basis rows 1..16 (row 0, the mean, is left out), as the reference builds it: a
// float scale times a double cosine, stored as float.
const DCT = (() => {
  const m = new Float32Array(16 * 64);
  const scale = f(Math.sqrt(2 / 64));
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) m[i * 64 + j] = scale * Math.cos((Math.PI / 2 / 64) * (i + 1) * (2 * j + 1));
  }
  return m;
})();

/**
 * The source rows the hash reads of a width × height image, in order: all of them, or for an
 * image wider or taller than 512, the 512 rows the nearest-neighbour resize takes (repeated
 * where it upsamples). A decoder may hand over just these rows, at full width and marked
 * `presampledRows`, and get the same hash (the browser does, to keep memory bounded).
 */
export function pdqSourceRows(width: number, height: number): number[] {
  if (width <= PDQ_DOWNSAMPLE_DIMS && height <= PDQ_DOWNSAMPLE_DIMS) return Array.from({ length: height }, (_, y) => y);
  return Array.from({ length: PDQ_DOWNSAMPLE_DIMS }, (_, y) => Math.floor((y * height) / PDQ_DOWNSAMPLE_DIMS));
}

/**
 * Alpha is flattened over white (what a viewer shows and what a re-encode to JPEG keeps), then
 * pixels are sampled to 512×512 with the reference's nearest-neighbour rule if either side is
 * larger, and turned into float luma (Rec. 601 weights).
 */
export function lumaOf(px: Pixels): { luma: Float32Array; rows: number; cols: number } {
  const { width, height, channels, data } = px;
  if (data.length < width * height * channels) throw new RangeError("pixel data is shorter than width × height × channels");
  if (px.presampledRows && height !== PDQ_DOWNSAMPLE_DIMS) throw new RangeError("presampled pixels hold the 512 rows pdqSourceRows names");
  const resize = px.presampledRows || width > PDQ_DOWNSAMPLE_DIMS || height > PDQ_DOWNSAMPLE_DIMS;
  const cols = resize ? PDQ_DOWNSAMPLE_DIMS : width;
  const rows = resize ? PDQ_DOWNSAMPLE_DIMS : height;
  // CImg's nearest neighbour (interpolation_type 1): output x takes input ⌊x·W/w⌋, in doubles.
  const xs = new Int32Array(cols);
  for (let x = 0; x < cols; x++) xs[x] = cols === width ? x : Math.floor((x * width) / cols);
  const luma = new Float32Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    const sy = rows === height ? y : Math.floor((y * height) / rows);
    const rowBase = sy * width;
    for (let x = 0; x < cols; x++) {
      const p = (rowBase + xs[x]!) * channels;
      let r: number;
      let g: number;
      let b: number;
      if (channels >= 3) {
        r = data[p]!;
        g = data[p + 1]!;
        b = data[p + 2]!;
      } else r = g = b = data[p]!;
      const a = channels === 4 ? data[p + 3]! : channels === 2 ? data[p + 1]! : 255;
      if (a !== 255) {
        r = Math.round((r * a + 255 * (255 - a)) / 255);
        g = Math.round((g * a + 255 * (255 - a)) / 255);
        b = Math.round((b * a + 255 * (255 - a)) / 255);
      }
      // The reference's fillFloatLumaFromGrey takes the byte as is; RGB goes through the weights.
      luma[y * cols + x] = channels <= 2 && a === 255 ? r : f(f(f(LUMA_R * r) + f(LUMA_G * g)) + f(LUMA_B * b));
    }
  }
  return { luma, rows, cols };
}

/** PDQ of decoded pixels. */
export function pdqOfPixels(px: Pixels): PdqHash {
  const { luma, rows, cols } = lumaOf(px);
  return pdqOfLuma(luma, rows, cols);
}

/** PDQ of a float luma matrix (rows × cols, row-major), as the reference's pdqHash256FromFloatLuma; `luma` is overwritten. */
export function pdqOfLuma(luma: Float32Array, rows: number, cols: number): PdqHash {
  if (rows < PDQ_MIN_HASHABLE_DIM || cols < PDQ_MIN_HASHABLE_DIM) return { hash: "0".repeat(64), quality: 0 };
  const b64 = new Float32Array(64 * 64);
  if (rows === 64 && cols === 64) b64.set(luma.subarray(0, 64 * 64));
  else {
    const scratch = new Float32Array(rows * cols);
    const alongRows = jaroszWindow(cols, 64);
    const alongCols = jaroszWindow(rows, 64);
    for (let i = 0; i < JAROSZ_PASSES; i++) {
      for (let r = 0; r < rows; r++) box1d(luma, scratch, r * cols, cols, 1, alongRows);
      for (let c = 0; c < cols; c++) box1d(scratch, luma, c, rows, cols, alongCols);
    }
    for (let oi = 0; oi < 64; oi++) {
      const ii = Math.trunc(((oi + 0.5) * rows) / 64);
      for (let oj = 0; oj < 64; oj++) b64[oi * 64 + oj] = luma[ii * cols + Math.trunc(((oj + 0.5) * cols) / 64)]!;
    }
  }
  const quality = qualityOf(b64);
  return { hash: bitsOf(dct64To16(b64)), quality };
}

function jaroszWindow(oldDim: number, newDim: number): number {
  return Math.trunc((oldDim + 2 * newDim - 1) / (2 * newDim));
}

// The reference's box1DFloat: a running-sum box filter whose window shrinks at both ends.
function box1d(inp: Float32Array, out: Float32Array, start: number, length: number, stride: number, window: number): void {
  const half = Math.trunc((window + 2) / 2);
  const phase1 = half - 1;
  const phase2 = window - half + 1;
  const phase3 = length - window;
  const phase4 = half - 1;
  let li = start;
  let ri = start;
  let oi = start;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < phase1; i++) {
    sum = f(sum + inp[ri]!);
    n++;
    ri += stride;
  }
  for (let i = 0; i < phase2; i++) {
    sum = f(sum + inp[ri]!);
    n++;
    out[oi] = sum / n;
    ri += stride;
    oi += stride;
  }
  for (let i = 0; i < phase3; i++) {
    sum = f(sum + inp[ri]!);
    sum = f(sum - inp[li]!);
    out[oi] = sum / n;
    li += stride;
    ri += stride;
    oi += stride;
  }
  for (let i = 0; i < phase4; i++) {
    sum = f(sum - inp[li]!);
    n--;
    out[oi] = sum / n;
    li += stride;
    oi += stride;
  }
}

function qualityOf(b: Float32Array): number {
  let gradientSum = 0;
  for (let i = 0; i < 63; i++) {
    for (let j = 0; j < 64; j++) gradientSum += Math.abs(Math.trunc(f(f(f(b[i * 64 + j]! - b[(i + 1) * 64 + j]!) * 100) / 255)));
  }
  for (let i = 0; i < 64; i++) {
    for (let j = 0; j < 63; j++) gradientSum += Math.abs(Math.trunc(f(f(f(b[i * 64 + j]! - b[i * 64 + j + 1]!) * 100) / 255)));
  }
  return Math.min(100, Math.trunc(gradientSum / 90));
}

// B = D · A · Dᵀ with D the 16×64 basis, summed in the reference's order.
function dct64To16(a: Float32Array): Float32Array {
  const t = new Float32Array(16 * 64);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 64; j++) {
      let sum = 0;
      for (let k = 0; k < 64; k++) sum = f(sum + f(DCT[i * 64 + k]! * a[k * 64 + j]!));
      t[i * 64 + j] = sum;
    }
  }
  const out = new Float32Array(16 * 16);
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      let sum = 0;
      for (let k = 0; k < 64; k++) sum = f(sum + f(t[i * 64 + k]! * DCT[j * 64 + k]!));
      out[i * 16 + j] = sum;
    }
  }
  return out;
}

// Bit i·16+j is set where coefficient (i, j) is above the median (Torben's, as the reference).
function bitsOf(dct: Float32Array): string {
  const median = torben(dct);
  const words = new Uint16Array(16);
  for (let k = 0; k < 256; k++) if (dct[k]! > median) words[k >> 4]! |= 1 << (k & 15);
  let hex = "";
  for (let w = 15; w >= 0; w--) hex += words[w]!.toString(16).padStart(4, "0");
  return hex;
}

function torben(m: Float32Array): number {
  const n = m.length;
  let min = m[0]!;
  let max = m[0]!;
  for (let i = 1; i < n; i++) {
    if (m[i]! < min) min = m[i]!;
    if (m[i]! > max) max = m[i]!;
  }
  let less = 0;
  let greater = 0;
  let equal = 0;
  let guess = 0;
  let maxLtGuess = 0;
  let minGtGuess = 0;
  for (;;) {
    guess = f(f(min + max) / 2);
    less = greater = equal = 0;
    maxLtGuess = min;
    minGtGuess = max;
    for (let i = 0; i < n; i++) {
      if (m[i]! < guess) {
        less++;
        if (m[i]! > maxLtGuess) maxLtGuess = m[i]!;
      } else if (m[i]! > guess) {
        greater++;
        if (m[i]! < minGtGuess) minGtGuess = m[i]!;
      } else equal++;
    }
    const half = Math.trunc((n + 1) / 2);
    if (less <= half && greater <= half) break;
    if (less > greater) max = maxLtGuess;
    else min = minGtGuess;
  }
  const half = Math.trunc((n + 1) / 2);
  if (less >= half) return maxLtGuess;
  if (less + equal >= half) return guess;
  return minGtGuess;
}

/** Bits set in each byte value. */
const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, i) => {
  let n = 0;
  for (let x = i; x; x >>= 1) n += x & 1;
  return n;
});

/** Hamming distance between two hashes as bytes (32 for PDQ; the shorter's length is compared). */
export function pdqDistanceBytes(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) d += BYTE_BITS[a[i]! ^ b[i]!]!;
  return d;
}

/** Hamming distance between two 64-hex-digit hashes. */
export function pdqDistance(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < 64; i += 8) {
    let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    d += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return d;
}
