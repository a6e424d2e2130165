import "server-only";
import fs from "node:fs";
import path from "node:path";
import * as fontkit from "fontkit";

/**
 * The one font of the Open Graph cards: DejaVu Sans (npm `dejavu-fonts-ttf`), read from
 * node_modules (the server runs from the repository's root, as for the certificates). It covers
 * Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and most symbols; what it lacks (CJK,
 * Indic scripts, Thai, colour emoji) is drawn as MISSING_GLYPH. Nothing is ever fetched: a card is
 * drawn from this file alone.
 */
export const CARD_FONT_FILE = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf", "DejaVuSans.ttf");
export const CARD_FONT_NAME = "DejaVu Sans";

/** What stands for a character the font cannot draw: the white square readers know as a missing glyph. */
export const MISSING_GLYPH = "\u25a1";
/**
 * A user-perceived character (grapheme) of more code points than this is drawn as MISSING_GLYPH:
 * real ones (an emoji family, a letter with its marks) are shorter; longer ones are stacked marks,
 * which cost layout time and draw over the neighbouring lines.
 */
export const MAX_GRAPHEME_CODE_POINTS = 8;

interface CardFont {
  /** The file's bytes, one Buffer for the process: the renderer caches its parse by this object. */
  data: Buffer;
  face: fontkit.Font;
}
let font: CardFont | undefined;
export function cardFont(): CardFont {
  if (!font) {
    const data = fs.readFileSync(CARD_FONT_FILE);
    font = { data, face: fontkit.create(data) as fontkit.Font };
  }
  return font;
}

const graphemes = new Intl.Segmenter("und", { granularity: "grapheme" });
const SPACE_LIKE = /[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** True when the card's font has a glyph for every code point of `grapheme`. */
function drawable(face: fontkit.Font, grapheme: string): boolean {
  let n = 0;
  for (const ch of grapheme) {
    if (++n > MAX_GRAPHEME_CODE_POINTS) return false;
    if (!face.hasGlyphForCodePoint(ch.codePointAt(0)!)) return false;
  }
  return true;
}

/**
 * `text` as the card draws it: at most `max` graphemes (the last one "…" when cut), white space
 * and control characters as single spaces, and every grapheme the font cannot draw whole as
 * MISSING_GLYPH. The result holds only code points the font has, so the renderer never looks for
 * another font. The work is bounded by `max`, whatever the length of `text`.
 */
export function cardText(text: string, max: number): string {
  const { face } = cardFont();
  const out: string[] = [];
  let cut = false;
  for (const { segment } of graphemes.segment(text)) {
    if ([...segment].every((c) => SPACE_LIKE.test(c))) {
      if (out.length > 0 && out[out.length - 1] !== " ") out.push(" ");
      continue;
    }
    if (out.length >= max) {
      cut = true;
      break;
    }
    out.push(drawable(face, segment) ? segment : MISSING_GLYPH);
  }
  while (out.length > 0 && out[out.length - 1] === " ") out.pop();
  if (!cut) return out.join("");
  const kept = out.slice(0, max - 1);
  while (kept.length > 0 && kept[kept.length - 1] === " ") kept.pop();
  return `${kept.join("")}…`;
}
