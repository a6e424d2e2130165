import "server-only";
import { visit } from "jsonc-parser";
import { hasLoneSurrogate } from "@/lib/verify/encoding";
import { AppError, type FieldError } from "../errors";
import { jsonPointer } from "../domain/json-pointer";
import { BACKSLASH, jsonDepthExcess, MAX_JSON_DEPTH, QUOTE } from "../json-depth.mjs";
import { parseJson } from "@/lib/verify/json-parse";

const MAX_REPORTED = 20;

/** sign, significant digits and the power of ten of their last digit: "-1.50e3" → ["-", "15", 2]. */
function decimalOf(text: string): [string, string, number] | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return null;
  const [, sign, int, frac = "", exp = "0"] = m;
  let digits = (int! + frac).replace(/^0+/, "");
  let power = Number(exp) - frac.length;
  const kept = digits.replace(/0+$/, "");
  power += digits.length - kept.length;
  digits = kept;
  return digits === "" ? ["", "", 0] : [sign!, digits, power];
}

/**
 * Why a JSON number does not survive a parse and a print exactly (I-JSON, RFC 7493 §2.2), or
 * null: a number beyond ±(2^53−1), where every double is an integer and most integers have
 * none (however written: 9007199254740993, 1e21), a value that underflows to zero (1e-400), or
 * one whose decimal changes when parsed to a double and printed back (0.30000000000000000001).
 * Zero is zero whatever its sign: RFC 8785 prints -0 as 0. Exported for its tests.
 */
export function numberProblem(raw: string): string | null {
  const value = Number(raw);
  const written = decimalOf(raw);
  if (Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    return `is an integer beyond ±(2^53−1), which JSON parsers need not hold exactly; send it as a string`;
  }
  if (value === 0 && written && written[1] !== "") return "underflows to zero; send it as a string";
  const printed = decimalOf(String(value));
  if (!written || !printed || written.join() !== printed.join()) {
    return `would change to ${String(value)} when parsed and printed back; send it as a string`;
  }
  return null;
}

/**
 * The I-JSON problems of valid JSON text, with a pointer each: a string or member name that is
 * not well-formed Unicode (a lone surrogate, which no UTF-8 text, database or signature can
 * carry faithfully), a member name used twice in one object (parsers keep either value), and
 * a number that does not survive a parse and a print exactly.
 */
export function ijsonProblems(text: string): FieldError[] {
  const out: FieldError[] = [];
  const names: Set<string>[] = [];
  const report = (path: (string | number)[], detail: string) => {
    if (out.length < MAX_REPORTED) out.push({ pointer: jsonPointer(path), detail });
  };
  visit(text, {
    onObjectBegin: () => void names.push(new Set()),
    onObjectEnd: () => void names.pop(),
    onObjectProperty: (name, _offset, _length, _line, _char, path) => {
      const seen = names.at(-1)!;
      if (hasLoneSurrogate(name)) report([...path(), name], "is a member name that is not well-formed Unicode (it holds a lone surrogate)");
      else if (seen.has(name)) report([...path(), name], "is a member name given more than once in its object");
      seen.add(name);
    },
    onLiteralValue: (value, offset, length, _line, _char, path) => {
      if (typeof value === "string") {
        if (hasLoneSurrogate(value)) report(path(), "is not well-formed Unicode (it holds a lone surrogate)");
      } else if (typeof value === "number") {
        const problem = numberProblem(text.slice(offset, offset + length));
        if (problem) report(path(), problem);
      }
    },
  });
  return out;
}

const COLON = 0x3a;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LETTER_U = 0x75;
/** Integers of at most this many digits are exact doubles (below 2^53) and print as written. */
const PLAIN_DIGITS = 15;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isNumberChar = (c: number) => (c >= DIGIT_0 && c <= DIGIT_9) || c === 0x2e || c === 0x2b || c === MINUS || c === 0x65 || c === 0x45;

/** The code unit of the four hex digits at `at` (the text is valid JSON, so they are hex digits). */
function hex4(text: string, at: number): number {
  let unit = 0;
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i) | 0x20; // lower case
    unit = unit * 16 + (c <= DIGIT_9 ? c - DIGIT_0 : c - 0x57);
  }
  return unit;
}

/** Members in a parsed JSON value, at every depth (its nesting is bounded by MAX_JSON_DEPTH). */
function memberCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += memberCount(v);
    return n;
  }
  for (const name in value) n += 1 + memberCount((value as Record<string, unknown>)[name]);
  return n;
}

/**
 * Whether valid JSON text (`parsed` is what JSON.parse made of it) holds anything ijsonProblems
 * reports, exactly, in one pass over its code units that allocates nothing but the text of a
 * number it cannot clear at sight (a plain integer of at most 15 digits). A member name given
 * twice is found by count: a parser keeps one member per name, so the parsed value holds fewer
 * members than the text names. The refusal itself, with its pointers, is ijsonProblems', which
 * runs only when this finds something: a body of 1,000 items is read once here instead of
 * through a visitor that allocates a token per value.
 */
export function hasIJsonProblem(text: string, parsed: unknown): boolean {
  let names = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let high = false; // a high surrogate waiting for its low half
      for (i++; ; i++) {
        let unit = text.charCodeAt(i);
        if (unit === QUOTE) break;
        if (unit === BACKSLASH) {
          if (text.charCodeAt(i + 1) === LETTER_U) {
            unit = hex4(text, i + 2);
            i += 5;
          } else {
            unit = 0; // a one-letter escape: no surrogate
            i++;
          }
        }
        if (high) {
          if (unit >= 0xdc00 && unit <= 0xdfff) {
            high = false;
            continue;
          }
          return true;
        }
        if (unit >= 0xd800 && unit <= 0xdbff) high = true;
        else if (unit >= 0xdc00 && unit <= 0xdfff) return true;
      }
      if (high) return true;
      let next = i + 1;
      while (isSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) names++;
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      const start = i;
      let plain = true;
      while (i + 1 < end && isNumberChar(text.charCodeAt(i + 1))) {
        const d = text.charCodeAt(++i);
        if (d < DIGIT_0 || d > DIGIT_9) plain = false;
      }
      const digits = i + 1 - start - (c === MINUS ? 1 : 0);
      if ((!plain || digits > PLAIN_DIGITS) && numberProblem(text.slice(start, i + 1)) !== null) return true;
    }
  }
  return names !== memberCount(parsed);
}

/**
 * The one parse of JSON a client sent (a /v1 body, a tRPC call's input). Text that nests arrays
 * and objects deeper than MAX_JSON_DEPTH is 422 validation_failed with a pointer to the first
 * value past the bound, before anything parses it (everything after recurses once per level).
 * Malformed JSON is 415 malformed_json. JSON that is not I-JSON (RFC 7493: see ijsonProblems)
 * is 422 validation_failed with a pointer to each problem: Hallmark stores and signs exactly
 * what it was sent, or refuses it, never a value a parser silently changed.
 */
export function parseJsonText(text: string): unknown {
  const tooDeep = jsonDepthExcess(text);
  if (tooDeep) {
    throw new AppError("validation_failed", `The JSON nests deeper than ${MAX_JSON_DEPTH} levels; see errors.`, [
      { pointer: jsonPointer(tooDeep), detail: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` },
    ]);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new AppError("malformed_json", "The body is not valid JSON.");
  }
  const errors = hasIJsonProblem(text, value) ? ijsonProblems(text) : [];
  if (errors.length) throw new AppError("validation_failed", "The JSON is not I-JSON (RFC 7493); see errors.", errors);
  return value;
}
