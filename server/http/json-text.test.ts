import fc from "fast-check";
import { isSafeNumber } from "lossless-json";
import { describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import { hasIJsonProblem, ijsonProblems, numberProblem, parseJsonText } from "./json-text";
import { parseJson } from "@/lib/verify/json-parse";

const refusal = (text: string) => {
  try {
    parseJsonText(text);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`${text} was accepted`);
};
const pointers = (text: string) => refusal(text).errors?.map((e) => e.pointer);

describe("parseJsonText", () => {
  it("parses JSON, well-formed surrogate pairs included", () => {
    expect(parseJsonText('{"a":["\\ud83d\\ude00","é"],"\\\\ud800":1}')).toEqual({ a: ["😀", "é"], "\\ud800": 1 });
  });

  it("refuses a lone surrogate in a string or a member name, with a pointer to each", () => {
    const err = refusal('{"a":{"b":"x\\ud800"},"c":["\\udfff"],"d\\udbff":1,"e":"\\ud83d"}');
    expect(err.code).toBe("validation_failed");
    expect(err.errors?.map((e) => e.pointer)).toEqual(["/a/b", "/c/0", "/d\udbff", "/e"]);
  });

  it("refuses a member name given twice in one object, however it is escaped, at the second", () => {
    expect(pointers('{"a":1,"a":2}')).toEqual(["/a"]);
    expect(pointers('{"x":{"a/b":1,"a\\/b":2},"y":[{"k":1,"\\u006b":2}]}')).toEqual(["/x/a~1b", "/y/0/k"]);
    // The same name in two objects is no duplicate.
    expect(parseJsonText('{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}')).toBeTruthy();
  });

  it("refuses numbers that do not survive a parse and a print, with a pointer to each", () => {
    expect(pointers('{"a":12345678901234567890,"b":[9007199254740993,1e-400],"c":{"d":0.30000000000000000001}}')).toEqual([
      "/a",
      "/b/0",
      "/b/1",
      "/c/d",
    ]);
    expect(refusal('{"n":9007199254740992}').errors?.[0]?.detail).toMatch(/beyond ±\(2\^53−1\)/);
  });

  it("keeps numbers that do", () => {
    const ok = "[0,-0,1,-1,0.1,1.5,1e-7,5e-324,1E2,1.0,100.000,9007199254740991,-9007199254740991,0.30000000000000004,2.5e-10]";
    expect(parseJsonText(ok)).toEqual(JSON.parse(ok));
  });

  it("reads escaped member names as sent after a body that poisons V8's key cache (nodejs/node#63785)", () => {
    const poison = '{"h":[],"\\\\":0}';
    expect(parseJsonText(poison)).toEqual({ h: [], "\\": 0 });
    expect(Object.keys(parseJsonText('{"h":1,"\\n":2}') as object)).toEqual(["h", "\n"]);
    parseJsonText(poison);
    expect(refusal('{"a":[],"\\u0061":0}').errors).toEqual([
      { pointer: "/a", detail: "is a member name given more than once in its object" },
    ]);
  });

  it("refuses nesting past MAX_JSON_DEPTH before parsing, with a pointer to the first value past it", () => {
    const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
    const objects = (n: number) => '{"a~/":'.repeat(n) + "1" + "}".repeat(n);
    expect(parseJsonText(arrays(64))).toBeTruthy();
    expect(parseJsonText(objects(64))).toBeTruthy();
    for (const [text, pointer] of [
      [arrays(65), "/0".repeat(64)],
      [objects(65), "/a~0~1".repeat(64)],
      [arrays(100_000), "/0".repeat(64)],
      [objects(20_000), "/a~0~1".repeat(64)],
    ] as const) {
      const err = refusal(text);
      expect(err.code).toBe("validation_failed");
      expect(err.errors).toEqual([{ pointer, detail: "is nested deeper than 64 levels of arrays and objects" }]);
    }
  });

  it("refuses what is not JSON as malformed_json", () => {
    for (const text of ["", "{", "{'a':1}", "[1,]", "nul", "// c\n1", "NaN"]) expect(refusal(text).code).toBe("malformed_json");
  });
});

describe("numberProblem against lossless-json (an independent implementation)", () => {
  const numeral = fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^(0|[1-9]\d{0,24})$/),
      fc.option(fc.stringMatching(/^\d{1,20}$/)),
      fc.option(fc.integer({ min: -400, max: 400 })),
    )
    .map(([neg, int, frac, exp]) => `${neg ? "-" : ""}${int}${frac === null ? "" : `.${frac}`}${exp === null ? "" : `e${exp}`}`);

  it("agrees on every numeral within ±(2^53−1): exact when lossless-json calls it safe", () => {
    fc.assert(
      fc.property(numeral, (text) => {
        const value = Number(text);
        if (Math.abs(value) > Number.MAX_SAFE_INTEGER) return numberProblem(text) !== null;
        return (numberProblem(text) === null) === isSafeNumber(text);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("hasIJsonProblem against ijsonProblems (the jsonc-parser visitor that reports them)", () => {
  // JSON text written with what trips a reader: escapes of every kind (a name escaped two ways
  // is one name), surrogates raw and escaped, paired and lone, numerals long, fractional and
  // exponential, names repeated within an object and across objects, "__proto__" included.
  const unit = fc.oneof(
    // As written in the text: escapes, raw characters, raw and escaped surrogates.
    fc.constantFrom("a", "k", "é", "😀", "\\ud83d", "\\ude00", "\\uD83D\\uDE00", "\\\\", '\\"', "\\n", "\\u0061", "\\u00e9", "/", "\\/"),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => `\\u${c.toString(16)}`),
  );
  const str = fc.array(unit, { maxLength: 4 }).map((parts) => `"${parts.join("")}"`);
  const name = fc.oneof(fc.constantFrom('"a"', '"\\u0061"', '"k"', '"__proto__"', '"\\u005f_proto__"'), str);
  const numeral = fc.oneof(
    fc.integer().map(String),
    fc.stringMatching(/^-?(0|[1-9]\d{0,22})(\.\d{1,22})?([eE][+-]?\d{1,3})?$/),
    fc.constantFrom("-0", "0.30000000000000004", "0.30000000000000000001", "9007199254740993", "1e400", "1e-400", "5e-324"),
  );
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      numeral,
      str,
      fc.constantFrom("true", "false", "null"),
      fc.array(tie("value"), { maxLength: 4 }).map((vs) => `[ ${vs.join(" , ")} ]`),
      fc.array(fc.tuple(name, tie("value")), { maxLength: 4 }).map((ms) => `{${ms.map(([k, v]) => `${k} : ${v}`).join(",")}}`),
    ),
  }));

  it("finds something exactly when the visitor reports something", () => {
    fc.assert(
      fc.property(value, (text) => {
        const parsed = parseJson(text);
        expect(hasIJsonProblem(text, parsed)).toBe(ijsonProblems(text).length > 0);
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees on a name given twice, "__proto__" once and twice, lone surrogates escaped and raw, numerals that print otherwise', () => {
    for (const text of [
      '{"a":1,"a":2}',
      '{"__proto__":1}',
      '{"__proto__":1,"__proto__":2}',
      '["\\ud800"]',
      '"\ud800"',
      '{"n":1.0}',
      "[1e2]",
    ]) {
      expect(hasIJsonProblem(text, parseJson(text))).toBe(ijsonProblems(text).length > 0);
    }
  });
});
