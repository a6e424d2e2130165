import { describe, expect, it } from "vitest";
import { cardFont, cardText, MISSING_GLYPH } from "./card-text";

const drawable = (text: string) => [...text].every((c) => cardFont().face.hasGlyphForCodePoint(c.codePointAt(0)!));

describe("cardText", () => {
  it("keeps what DejaVu Sans draws: Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic", () => {
    for (const t of ["Harbour lights", "Ἀθῆναι", "Огни гавани", "Բարեւ", "ქართული", "שלום", "أضواء الميناء", "Café ☺"])
      expect(cardText(t, 80)).toBe(t);
  });

  it("draws what it lacks as one box per character: CJK, Indic, Thai, emoji sequences", () => {
    expect(cardText("春江花月夜", 80)).toBe(MISSING_GLYPH.repeat(5));
    expect(cardText("Art 🎨 👩‍🎨 🏳️‍🌈", 80)).toBe(`Art ${MISSING_GLYPH} ${MISSING_GLYPH} ${MISSING_GLYPH}`);
    expect(cardText("नमस्ते", 80)).toBe(MISSING_GLYPH.repeat([...new Intl.Segmenter().segment("नमस्ते")].length));
  });

  it("draws a grapheme of stacked marks as a box, a short one as written", () => {
    expect(cardText(`a${"\u0301".repeat(60)}b`, 80)).toBe(`${MISSING_GLYPH}b`);
    expect(cardText("e\u0301", 80)).toBe("e\u0301");
  });

  it("turns white space and controls into single spaces, and trims", () => {
    expect(cardText("  a\n\tb\u202e\u200bc  ", 80)).toBe("a b c");
  });

  it("caps the graphemes, ending a cut text in an ellipsis, and never splits a surrogate pair", () => {
    expect(cardText("ж".repeat(80), 80)).toBe("ж".repeat(80));
    expect(cardText("ж".repeat(81), 80)).toBe(`${"ж".repeat(79)}…`);
    const cut = cardText("𝒜".repeat(100), 10);
    expect([...cut]).toHaveLength(10);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("leaves only code points the font has, whatever the input", () => {
    const wild = "Z̴̡̢a̸l̷g̶o̶ 春 🎨 \u0000 \ud800x \u{10ffff} \ufeff ꙮ 𝕳 ᚠ";
    expect(drawable(cardText(wild, 80))).toBe(true);
  });
});
