import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeEntryBundle, encodeEntryBundle, encodeTileIndex, parseTilePath, partialTileWidth, tileExists, tilePath } from "./tiles";

describe("tile paths (C2SP tlog-tiles)", () => {
  it("encodes the spec's example index 1234067 as x001/x234/067", () => {
    expect(encodeTileIndex(1234067)).toBe("x001/x234/067");
    expect(encodeTileIndex(0)).toBe("000");
    expect(encodeTileIndex(1000)).toBe("x001/000");
    expect(tilePath({ level: 1, index: 1234067, width: 17 })).toBe("tile/1/x001/x234/067.p/17");
    expect(tilePath({ level: "entries", index: 5, width: 256 })).toBe("tile/entries/005");
  });

  it("parses exactly the paths it makes", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 63 }), fc.constant("entries" as const)),
        fc.maxSafeNat(),
        fc.integer({ min: 1, max: 256 }),
        (level, index, width) => {
          const path = tilePath({ level, index, width });
          expect(parseTilePath(path.split("/").slice(1))).toEqual({ level, index, width });
        },
      ),
    );
    for (const bad of [
      "0/0",
      "0/0000",
      "00/000",
      "0/x000/001",
      "0/x01/001",
      "0/001.p/0",
      "0/001.p/256",
      "0/001.p/010x",
      "64/000",
      "0/001/x002",
      "entries/001.p",
    ]) {
      expect(parseTilePath(bad.split("/"))).toBeNull();
    }
  });

  it("has the spec's tiles for a tree of 70,000 and of 256", () => {
    const s = 70_000;
    expect(Math.floor(s / 256)).toBe(273);
    expect(partialTileWidth(0, s)).toBe(112);
    expect(tileExists({ level: 1, index: 0, width: 256 }, s)).toBe(true);
    expect(partialTileWidth(1, s)).toBe(17);
    expect(partialTileWidth(2, s)).toBe(1);
    expect(tileExists({ level: 0, index: 273, width: 112 }, s)).toBe(true);
    expect(tileExists({ level: 0, index: 273, width: 113 }, s)).toBe(false);
    expect(tileExists({ level: 2, index: 0, width: 1 }, s)).toBe(true);
    expect(tileExists({ level: 2, index: 0, width: 2 }, s)).toBe(false);
    expect(tileExists({ level: 0, index: 0, width: 256 }, 256)).toBe(true);
    expect(partialTileWidth(1, 256)).toBe(1);
    expect(tileExists({ level: 1, index: 0, width: 1 }, 256)).toBe(true);
  });
});

describe("entry bundles", () => {
  it("round-trips entries with big-endian uint16 lengths, up to 65,535 bytes", () => {
    const entries = [new Uint8Array(0), Uint8Array.of(1, 2, 3), new Uint8Array(65_535).fill(7)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.subarray(0, 4)]).toEqual([0, 0, 0, 3]);
    expect(bundle[7]).toBe(0xff);
    expect(bundle[8]).toBe(0xff);
    expect(decodeEntryBundle(bundle, 3)).toEqual(entries);
    expect(() => encodeEntryBundle([new Uint8Array(65_536)])).toThrow(RangeError);
    expect(() => decodeEntryBundle(bundle.subarray(0, bundle.length - 1))).toThrow();
    expect(() => decodeEntryBundle(bundle, 2)).toThrow();
  });
});
