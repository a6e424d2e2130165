import { UUID } from "uuidv7";
import { describe, expect, it } from "vitest";
import { isUuid, iso, newId } from "./ids";

describe("newId", () => {
  it("is a version 7, RFC 9562 variant UUID in the form uuidv7 itself prints, each greater than the last", () => {
    let last = "";
    for (let i = 0; i < 20_000; i++) {
      const id = newId();
      expect(isUuid(id)).toBe(true);
      // The library parses it and prints it back unchanged: the same bytes, the same text.
      const parsed = UUID.parse(id);
      expect(parsed.toString()).toBe(id);
      expect(parsed.getVersion()).toBe(7);
      expect(parsed.getVariant()).toBe("VAR_10");
      expect(id > last).toBe(true);
      last = id;
    }
  });

  it("carries the time it was made in its first 48 bits", () => {
    const before = Date.now();
    const id = newId();
    const ms = Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});

describe("iso", () => {
  it("formats every time as toISOString does, the same time twice in a row included, and refuses an invalid date", () => {
    const times = [0, 0, 1, 1_700_000_000_123, 1_700_000_000_123, 1_700_000_000_124, 8.64e15, -1, 0];
    for (const t of times) expect(iso(new Date(t))).toBe(new Date(t).toISOString());
    expect(() => iso(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => iso(new Date(Number.NaN))).toThrow(RangeError);
  });
});
