// Multi-index hashing for PDQ (Norouzi, Punjani and Fleet, "Fast search in Hamming space with
// multi-index hashing", CVPR 2012; the reference's pdq/cpp/index/mih.h): a 256-bit hash is cut
// into 16 windows of 16 bits. Two hashes within distance d differ, by the pigeonhole principle,
// in at most ⌊d/16⌋ bits of at least one window; so the hashes within d of a query are among
// those that share, in some window, a value within ⌊d/16⌋ bits of the query's. For d ≤ 31 that
// is 16 windows × 17 values (the window itself and its 16 one-bit neighbours): 272 index probes,
// then the exact distance of each candidate.

export const PDQ_WINDOWS = 16;
/** The columns of the `fingerprints` table that hold the windows, window k in column k. */
export const PDQ_WINDOW_COLUMNS = Array.from({ length: PDQ_WINDOWS }, (_, k) => `w${k}`);
/** What a fingerprint that is never matched holds in those columns. */
export const NO_PDQ_WINDOWS: null[] = PDQ_WINDOW_COLUMNS.map(() => null);
/** The window columns' values as a row's fields ({w0: …, …, w15: …}), all null for none. */
export const pdqWindowFields = (windows: readonly number[] | null): Record<string, number | null> =>
  Object.fromEntries(PDQ_WINDOW_COLUMNS.map((column, k) => [column, windows?.[k] ?? null]));
/** The reference's advice: a distance ≤ 31 is a match. */
export const PDQ_MATCH_DISTANCE = 31;
/** The reference's advice: fingerprints of quality ≤ 49 are too featureless to match. */
export const PDQ_MIN_MATCH_QUALITY = 50;

/** The 16 windows of a 64-hex-digit hash: window k is hex digits 4k..4k+3, as an integer 0–65535. */
export function pdqWindows(hash: string): number[] {
  const out: number[] = [];
  for (let k = 0; k < PDQ_WINDOWS; k++) out.push(Number.parseInt(hash.slice(4 * k, 4 * k + 4), 16));
  return out;
}

/** Whether a fingerprint of this quality is matched at all. */
export const pdqMatchable = (quality: number) => quality >= PDQ_MIN_MATCH_QUALITY;

/**
 * For each window, the values to probe so that every hash within `maxDistance` of `hash` is
 * found: those within ⌊maxDistance/16⌋ bits of the query's window (radius 0 or 1 for d ≤ 31).
 */
export function pdqProbes(hash: string, maxDistance: number): number[][] {
  const radius = Math.floor(maxDistance / PDQ_WINDOWS);
  if (radius > 1) throw new RangeError("probing is implemented for distances up to 31");
  return pdqWindows(hash).map((w) => (radius === 0 ? [w] : [w, ...Array.from({ length: 16 }, (_, bit) => w ^ (1 << bit))]));
}
