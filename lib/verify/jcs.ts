// RFC 8785 JSON Canonicalization Scheme, from a maintained library (never hand-rolled).
import canonicalize from "canonicalize";

/**
 * The RFC 8785 (JCS) serialization of `value`.
 * Throws on values JCS cannot represent: NaN/Infinity, lone surrogates, cycles, and values
 * with no JSON form at all (undefined, functions, symbols, BigInt).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === "bigint") throw new TypeError("JCS: BigInt has no JSON form");
  const out = canonicalize(value);
  if (typeof out !== "string") throw new TypeError("JCS: value has no JSON form");
  return out;
}
