import fc from "fast-check";
import { visit } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { hasEscapedMemberName, parseJson } from "./json-parse";

/** A parse that leaves V8's key cache (Node 24, 26) decoding the next escaped name as "\". */
const poison = () => JSON.parse('{"h":[],"\\\\":0}');

/** Rewrites some characters of the text's strings as \uXXXX escapes: the same JSON, written otherwise. */
function escapeSome(text: string, pick: number[]): string {
  let out = "";
  let inString = false;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString && ch === "\\") {
      out += ch + text[++i];
      continue;
    }
    if (ch === '"') inString = !inString;
    else if (inString && pick[n++ % pick.length]! % 3 === 0) {
      out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
      continue;
    }
    out += ch;
  }
  return out;
}

describe("parseJson", () => {
  it("reads escaped member names as written after a parse that poisons V8's key cache (nodejs/node#63785)", () => {
    for (const [escaped, name] of [
      ['\\"', '"'],
      ["\\n", "\n"],
      ["\\r", "\r"],
      ["\\f", "\f"],
      ["\\u0061", "a"],
      ["\\\\", "\\"],
    ] as const) {
      poison();
      expect(Object.keys(parseJson(`{"h":1,"${escaped}":2}`) as object)).toEqual(["h", name]);
      poison();
      expect(parseJson(`[{"h":{"${escaped}":[1]}}]`)).toEqual([{ h: { [name]: [1] } }]);
    }
  });

  it('keeps "__proto__" an own member and the last value of a name given twice, in its first place', () => {
    const v = parseJson('{"\\u005f_proto__":{"x":1},"b":1,"b":2,"\\u0062":3}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__", "b"]);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual({ x: 1 });
    expect(v.b).toBe(3);
  });

  it("refuses what is not JSON, as JSON.parse does", () => {
    for (const text of ['{"\\u0061":1,}', '{"\\n":1 // no\n}', "", '{"\\q":1}']) expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it("gives back every JSON value, its strings written with escapes or not, poisoned or not", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("\\", '"', "\n", "a", "__proto__", "h", "\u2028", "😀"));
    const value = fc
      .jsonValue({ maxDepth: 4 })
      .chain((leaf) => fc.dictionary(key, fc.constant(leaf), { maxKeys: 4 }).map((o) => ({ h: [], ...o })));
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), fc.boolean(), (v, pick, poisoned) => {
        if (poisoned) poison();
        const text = JSON.stringify(v);
        expect(JSON.stringify(parseJson(text))).toBe(text);
        expect(JSON.stringify(parseJson(escapeSome(text, pick)))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("hasEscapedMemberName against jsonc-parser's visitor", () => {
  const rawNames = (text: string) => {
    const names: string[] = [];
    visit(text, { onObjectProperty: (_name, offset, length) => void names.push(text.slice(offset, offset + length)) });
    return names;
  };
  it("is true exactly when a member name is written with a backslash", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (v, pick) => {
        for (const text of [JSON.stringify(v), escapeSome(JSON.stringify(v), pick), JSON.stringify(v, null, 1)]) {
          expect(hasEscapedMemberName(text)).toBe(rawNames(text).some((n) => n.includes("\\")));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
