// @ts-check
// The nesting bound on JSON a client sends, checked on the text before anything parses it: a
// /v1 body, a tRPC input, a cursor (server/http/json-text.ts, server/domain/protections/protection-list.ts)
// and the Next-Router-State-Tree header (server/gate/gate.mjs). Plain JavaScript so the gate,
// which runs without Next.js, shares it.
//
// Parsers, validators and printers (jsonc-parser's visit, zod, JCS, JSON.stringify) recurse once
// per level; a 256 KiB body can nest 130,000 levels and exhaust the stack. Behind this check
// nothing meets more than MAX_JSON_DEPTH.

/**
 * Arrays and objects nest at most this deep in any JSON a client sends, the outermost value
 * counting as 1 (`[[1]]` is 2). The deepest JSON Hallmark takes is a payload or ai_metadata
 * (MAX_PAYLOAD_DEPTH, 32 levels, server/domain/attestations/leaf-bounds.ts) inside its wrappers (a batch item, a
 * tRPC batch: 37 levels in all): this is far past that, so a payload too deep still gets its own
 * answer at /payload, and past real documents (JSON-LD, C2PA manifests and EXIF dumps nest a
 * dozen levels). It is also as deep as .NET's System.Text.Json reads by default, and shallow
 * enough for every recursion behind it.
 */
export const MAX_JSON_DEPTH = 64;

/** Character codes the JSON scanners here and in server/http/json-text.ts read. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/**
 * The index of the quote that ends the string opened at `at`, or text.length when none does.
 * @param {string} text
 * @param {number} at
 */
function stringEnd(text, at) {
  for (let i = text.indexOf('"', at + 1); i !== -1; i = text.indexOf('"', i + 1)) {
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return i;
  }
  return text.length;
}

/**
 * The member name of the string at [start, end], as a JSON parser reads it (as written when it does not parse).
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {string}
 */
function memberName(text, start, end) {
  const raw = text.slice(start, end + 1);
  try {
    return JSON.parse(raw);
  } catch {
    return raw.slice(1, -1);
  }
}

/**
 * The path (member names and array indexes) of the value that opens at `at`, reading `text`
 * from its start: the array index or member name each enclosing level is at. Runs only on a
 * refusal, so it may allocate.
 * @param {string} text
 * @param {number} at
 */
function pathTo(text, at) {
  /** @type {({ index: number } | { name: [number, number] | null, awaitingName: boolean })[]} */
  const levels = [];
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    const top = levels.at(-1);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (top && "awaitingName" in top && top.awaitingName) {
        top.name = [i, end];
        top.awaitingName = false;
      }
      i = end;
    } else if (c === OPEN_ARRAY) levels.push({ index: 0 });
    else if (c === OPEN_OBJECT) levels.push({ name: null, awaitingName: true });
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) levels.pop();
    else if (c === COMMA && top) {
      if ("index" in top) top.index++;
      else top.awaitingName = true;
    }
  }
  return levels.map((l) => ("index" in l ? l.index : l.name ? memberName(text, l.name[0], l.name[1]) : ""));
}

/**
 * The path of the first value in `text` that nests deeper than `max` arrays and objects (its
 * JSON pointer's tokens: `[0, 0, …]`, `["a", "a", …]`), or null when none does. One linear,
 * iterative pass that counts brackets outside strings (escapes honoured) and allocates nothing
 * unless it refuses; it does not check that the text is JSON (the parse after it does), so on
 * text that is not, its path is only where a parser would have got to.
 * @param {string} text
 * @param {number} [max]
 * @returns {(string | number)[] | null}
 */
export function jsonDepthExcess(text, max = MAX_JSON_DEPTH) {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return pathTo(text, i);
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) depth--;
  }
  return null;
}
