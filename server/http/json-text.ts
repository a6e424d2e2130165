import "server-only";
import { visit } from "jsonc-parser";
import { hasLoneSurrogate } from "@/lib/verify/encoding";
import { AppError, type FieldError } from "../errors";
import { jsonPointer } from "../domain/json-pointer";
import { jsonDepthExcess, MAX_JSON_DEPTH } from "../json-depth.mjs";

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
function ijsonProblems(text: string): FieldError[] {
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
    value = JSON.parse(text);
  } catch {
    throw new AppError("malformed_json", "The body is not valid JSON.");
  }
  const errors = ijsonProblems(text);
  if (errors.length) throw new AppError("validation_failed", "The JSON is not I-JSON (RFC 7493); see errors.", errors);
  return value;
}
