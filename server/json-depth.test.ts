import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepthExcess, MAX_JSON_DEPTH } from "./json-depth.mjs";

const arrays = (depth: number, inner = "") => "[".repeat(depth) + inner + "]".repeat(depth);
const objects = (depth: number, name = "a") => `{${JSON.stringify(name)}:`.repeat(depth) + "1" + "}".repeat(depth);

/** How deep a parsed value nests arrays and objects, by plain recursion (the reference). */
const depthOf = (v: unknown): number =>
  v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v as Record<string, unknown>).map(depthOf)) : 0;

/** The value at a path of member names and indexes. */
const at = (v: unknown, path: (string | number)[]): unknown => path.reduce((x, k) => (x as Record<string, unknown>)[k], v);

describe("jsonDepthExcess", () => {
  it("passes nesting exactly at the bound and refuses one level more, for arrays and objects", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonDepthExcess(arrays(64))).toBeNull();
    expect(jsonDepthExcess(objects(64))).toBeNull();
    expect(jsonDepthExcess(arrays(65))).toEqual(Array(64).fill(0));
    expect(jsonDepthExcess(objects(65))).toEqual(Array(64).fill("a"));
    expect(jsonDepthExcess(arrays(3), 3)).toBeNull();
    expect(jsonDepthExcess(arrays(4), 3)).toEqual([0, 0, 0]);
  });

  it("refuses what would exhaust a recursive parser's stack, naming the first value past the bound", () => {
    expect(jsonDepthExcess(arrays(100_000))).toEqual(Array(64).fill(0));
    expect(jsonDepthExcess(objects(20_000))).toEqual(Array(64).fill("a"));
    // Unclosed: the bound is met before the text is known to be malformed.
    expect(jsonDepthExcess("[".repeat(20_000))).toEqual(Array(64).fill(0));
  });

  it("counts depth, not brackets: siblings and scalars add no level", () => {
    expect(jsonDepthExcess(`[${Array(1000).fill(arrays(63)).join(",")}]`)).toBeNull();
    expect(jsonDepthExcess(JSON.stringify({ a: [1, 2, { b: [] }], c: {} }), 4)).toBeNull();
    expect(jsonDepthExcess(JSON.stringify({ a: [1, 2, { b: [] }], c: {} }), 3)).toEqual(["a", 2, "b"]);
    expect(jsonDepthExcess('1 "x" null')).toBeNull();
  });

  it("does not count brackets inside strings, escaped quotes and backslashes included", () => {
    const strings = [
      JSON.stringify("[".repeat(200)),
      JSON.stringify('{"a":'.repeat(200)),
      JSON.stringify('\\"[[[[[['.repeat(50)),
      JSON.stringify("\\".repeat(7) + "[".repeat(100)),
      '"\\u005b\\"[[[[[[[["',
    ];
    for (const s of strings) {
      expect(jsonDepthExcess(`[${s}]`, 1), s).toBeNull();
      expect(jsonDepthExcess(`{${s}:${s}}`, 1), s).toBeNull();
    }
    // A string that ends in an escaped backslash ends there: the bracket after it counts.
    expect(jsonDepthExcess('["\\\\",[1]]', 1)).toEqual([1]);
    expect(jsonDepthExcess('["\\\\\\"",[1]]', 1)).toEqual([1]);
  });

  it("names the array index and member name at each level, as a JSON pointer's tokens", () => {
    expect(jsonDepthExcess('[1,"]",[2,[],[3,4,[5]]]]', 3)).toEqual([2, 2, 2]);
    expect(jsonDepthExcess('{"x":[],"a/b":{"k":1,"~0":{"[":"{","deep":[[]]}}}', 3)).toEqual(["a/b", "~0", "deep"]);
    // Names as a parser reads them: escapes decoded, a lone surrogate kept.
    expect(jsonDepthExcess('{"\\u0061\\"b":{"\\ud800":[[]]}}', 3)).toEqual(['a"b', "\ud800", 0]);
    // Members that follow nested values: the name is the one whose value goes too deep.
    expect(jsonDepthExcess('{"a":{"b":{}},"c":{"d":1,"e":{"f":{}}}}', 3)).toEqual(["c", "e", "f"]);
    expect(jsonDepthExcess('[{"a":[1]},{"b":[{"c":{}}]}]', 4)).toEqual([1, "b", 0, "c"]);
  });

  it("agrees with a recursive reference on generated JSON, and its path leads to a value past the bound", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 6 }), (generated, max) => {
        const text = JSON.stringify(generated);
        const value: unknown = JSON.parse(text);
        const path = jsonDepthExcess(text, max);
        expect(path === null).toBe(depthOf(value) <= max);
        if (path) {
          expect(path).toHaveLength(max);
          const found = at(value, path);
          expect(found !== null && typeof found === "object").toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
