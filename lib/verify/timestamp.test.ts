import { describe, expect, it } from "vitest";
import { compareInstants, parseTimestamp } from "./timestamp";

describe("parseTimestamp", () => {
  it.each([
    ["2025-03-04T05:06:07.089Z", Date.UTC(2025, 2, 4, 5, 6, 7, 89)],
    ["2025-03-04T05:06:07Z", Date.UTC(2025, 2, 4, 5, 6, 7)],
    ["2025-03-04T07:06:07.5+02:00", Date.UTC(2025, 2, 4, 5, 6, 7, 500)],
    ["2025-03-03T23:36:07-05:30", Date.UTC(2025, 2, 4, 5, 6, 7)],
    ["2024-02-29T00:00:00.000Z", Date.UTC(2024, 1, 29)],
    ["2000-02-29T00:00:00Z", Date.UTC(2000, 1, 29)],
  ])("parses %s", (text, ms) => {
    const t = parseTimestamp(text);
    expect(t?.ms).toBe(ms);
    expect(t?.ms).toBe(Date.parse(text));
  });

  it("keeps two-digit years (Date.UTC would map year 50 to 1950)", () => {
    expect(new Date(parseTimestamp("0050-01-01T00:00:00Z")!.ms).getUTCFullYear()).toBe(50);
  });

  it.each([
    "2025-03-04",
    "2025-03-04T05:06:07",
    "2025-03-04 05:06:07Z",
    "2025-03-04t05:06:07z",
    "2025-13-01T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2025-04-31T00:00:00Z",
    "2025-03-04T24:00:00Z",
    "2025-03-04T23:60:00Z",
    "2025-03-04T23:59:60Z",
    "2025-03-04T05:06:07.Z",
    "2025-03-04T05:06:07.0000000001Z",
    "2025-03-04T05:06:07+0200",
    "2025-03-04T05:06:07+24:00",
    "+002025-03-04T05:06:07Z",
    " 2025-03-04T05:06:07Z",
    "",
  ])("rejects %j", (text) => expect(parseTimestamp(text)).toBeNull());

  it("orders instants exactly, below the millisecond and across offsets", () => {
    const cmp = (a: string, b: string) => Math.sign(compareInstants(parseTimestamp(a)!, parseTimestamp(b)!));
    expect(cmp("2025-03-04T05:06:07.0891Z", "2025-03-04T05:06:07.089Z")).toBe(1);
    expect(cmp("2025-03-04T05:06:07.089000001Z", "2025-03-04T05:06:07.089000002Z")).toBe(-1);
    expect(cmp("2025-03-04T05:06:07.089Z", "2025-03-04T05:06:07.089000Z")).toBe(0);
    expect(cmp("2025-03-04T07:06:07+02:00", "2025-03-04T05:06:07Z")).toBe(0);
    expect(cmp("2025-03-04T07:06:07+01:00", "2025-03-04T05:06:07Z")).toBe(1);
  });
});
