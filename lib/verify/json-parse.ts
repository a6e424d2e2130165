import { visit } from "jsonc-parser";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Whether valid JSON text names a member with an escape (`"\u0061"`, `"a\nb"`, `"\\"`). One pass
 * over the text, and none at all for text without a backslash.
 */
export function hasEscapedMemberName(text: string): boolean {
  if (!text.includes("\\")) return false;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) !== QUOTE) continue;
    let escaped = false;
    for (i++; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        i++; // the escaped character: a quote there does not end the string
      }
    }
    if (!escaped) continue;
    let next = i + 1;
    while (isSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === COLON) return true;
  }
  return false;
}

/** Builds the value of valid JSON text from jsonc-parser's tokens, member names as decoded there. */
function buildFromTokens(text: string): unknown {
  const open: (unknown[] | Record<string, unknown>)[] = [];
  const names: string[] = [];
  let root: unknown;
  const place = (value: unknown) => {
    const into = open.at(-1);
    if (!into) root = value;
    else if (Array.isArray(into)) into.push(value);
    // As JSON.parse does: an own data property even for "__proto__", the last value of a name
    // given twice in the place of its first.
    else Object.defineProperty(into, names.at(-1)!, { value, writable: true, enumerable: true, configurable: true });
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        const o: Record<string, unknown> = {};
        place(o);
        open.push(o);
        names.push("");
      },
      onObjectProperty: (name) => {
        names[names.length - 1] = name;
      },
      onObjectEnd: () => {
        open.pop();
        names.pop();
      },
      onArrayBegin: () => {
        const a: unknown[] = [];
        place(a);
        open.push(a);
      },
      onArrayEnd: () => void open.pop(),
      onLiteralValue: (value) => place(value),
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return root;
}

/**
 * JSON.parse, faithful to the text's member names. V8 (Node 24 and 26, Chrome of the same
 * engine) can decode an escaped member name as "\" once an earlier parse in the same process
 * named a member "\" (nodejs/node#63785): a client could turn the next body's `"\n"` into
 * another key, and Hallmark would sign what it was not sent. So text whose member names hold an
 * escape is built from jsonc-parser's tokens instead; the rest (nearly all) is JSON.parse's.
 * Throws a SyntaxError for text that is not JSON, as JSON.parse does.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return hasEscapedMemberName(text) ? buildFromTokens(text) : value;
}
