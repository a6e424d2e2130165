// C2SP tlog-tiles (https://c2sp.org/tlog-tiles): tile paths, tile hashes and entry bundles.
// A tile at level L, index N holds the hashes of the perfect subtrees of height 8·L covering
// leaves [(N·256 + i)·256^L, (N·256 + i + 1)·256^L), i < width; a full tile is 256 wide.
import { bytesEqual } from "./encoding";
import { HASH_SIZE, leafHash } from "./merkle";

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
/** Entry bundles prefix each entry with a big-endian uint16 length. */
export const MAX_ENTRY_BYTES = 0xffff;

export interface TileAddress {
  /** "entries" for an entry bundle, else the tile level (0–63). */
  level: number | "entries";
  index: number;
  /** 1–255 for a partial tile, 256 for a full one. */
  width: number;
}

/** N as zero-padded 3-digit path elements, all but the last prefixed with "x": 1234067 → x001/x234/067. */
export function encodeTileIndex(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new TypeError("tile index must be a safe non-negative integer");
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, "0"));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join("/");
}

/** The path under the monitoring prefix: `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`. */
export function tilePath(t: TileAddress): string {
  if (t.level !== "entries" && !(Number.isInteger(t.level) && t.level >= 0 && t.level <= 63))
    throw new TypeError("tile level must be 0–63");
  if (!Number.isInteger(t.width) || t.width < 1 || t.width > TILE_WIDTH) throw new TypeError("tile width must be 1–256");
  const partial = t.width < TILE_WIDTH ? `.p/${t.width}` : "";
  return `tile/${t.level}/${encodeTileIndex(t.index)}${partial}`;
}

/**
 * Parses the path segments after `tile/`. Only the canonical encoding is accepted (no extra
 * leading zeros, an "x" on every element but the last), so each tile has exactly one path.
 */
export function parseTilePath(segments: readonly string[]): TileAddress | null {
  if (segments.length < 2) return null;
  const [levelText, ...rest] = segments as [string, ...string[]];
  let level: number | "entries";
  if (levelText === "entries") level = "entries";
  else if (/^(0|[1-9][0-9]?)$/.test(levelText) && Number(levelText) <= 63) level = Number(levelText);
  else return null;
  let width = TILE_WIDTH;
  const last = rest.length - 1;
  let indexParts = rest;
  if (rest.length >= 2 && rest[last - 1]!.endsWith(".p")) {
    if (!/^[1-9][0-9]{0,2}$/.test(rest[last]!) || Number(rest[last]) > 255) return null;
    width = Number(rest[last]);
    indexParts = [...rest.slice(0, last - 1), rest[last - 1]!.slice(0, -2)];
  }
  if (indexParts.length === 0 || indexParts.length > 6) return null;
  let index = 0;
  for (let i = 0; i < indexParts.length; i++) {
    const part = indexParts[i]!;
    const m = i < indexParts.length - 1 ? /^x([0-9]{3})$/.exec(part) : /^([0-9]{3})$/.exec(part);
    if (!m) return null;
    index = index * 1000 + Number(m[1]);
  }
  if (!Number.isSafeInteger(index)) return null;
  const address = { level, index, width };
  return tilePath(address) === ["tile", ...segments].join("/") ? address : null;
}

/** Leaves covered by one hash of a level-L tile: 256^L. */
export function leavesPerTileHash(level: number): number {
  return TILE_WIDTH ** level;
}

/** Whether a tree of `treeSize` leaves has this tile (full, or partial of exactly this width or wider). */
export function tileExists(t: TileAddress, treeSize: number): boolean {
  const per = t.level === "entries" ? 1 : leavesPerTileHash(t.level);
  const hashesBelow = Math.floor(treeSize / per);
  return t.index * TILE_WIDTH + t.width <= hashesBelow;
}

/** The width of the rightmost tile at `level` for a tree of `treeSize`: floor(s / 256^L) mod 256 (0: none). */
export function partialTileWidth(level: number, treeSize: number): number {
  return Math.floor(treeSize / leavesPerTileHash(level)) % TILE_WIDTH;
}

/** Splits a tile's bytes into its hashes; throws if the length is not width × 32. */
export function tileHashes(bytes: Uint8Array, width: number): Uint8Array[] {
  if (bytes.length !== width * HASH_SIZE) throw new Error(`tile must be ${width * HASH_SIZE} bytes, got ${bytes.length}`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < width; i++) out.push(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  return out;
}

/** Encodes entries as an entry bundle: each a big-endian uint16 length, then its bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const e of entries) {
    if (e.length > MAX_ENTRY_BYTES) throw new RangeError("an entry bundle entry must be at most 65,535 bytes");
    size += 2 + e.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) {
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** Decodes an entry bundle; throws on a truncated entry or a count other than `width` (when given). */
export function decodeEntryBundle(bytes: Uint8Array, width?: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new Error("entry bundle ends inside a length prefix");
    const len = (bytes[at]! << 8) | bytes[at + 1]!;
    if (at + 2 + len > bytes.length) throw new Error("entry bundle ends inside an entry");
    out.push(bytes.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  if (width !== undefined && out.length !== width) throw new Error(`entry bundle holds ${out.length} entries, expected ${width}`);
  return out;
}

/** Checks that each entry hashes to the matching level-0 tile hash. */
export function entriesMatchTile(entries: readonly Uint8Array[], tile: readonly Uint8Array[]): boolean {
  return entries.length === tile.length && entries.every((e, i) => bytesEqual(leafHash(e), tile[i]!));
}
