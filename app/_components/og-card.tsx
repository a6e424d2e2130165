// The Open Graph image of a verify or share link (1200×630 PNG, next/og): the work's title and
// creator when it is public, "A protected work" when it is private, with the date, the short
// hash and where to check it. Only what the page itself shows anyone. Drawn with the shipped
// DejaVu Sans alone (server/og/card-text.ts: never a font from the network), one render at a
// time, cached by what it draws (server/og/card-cache.ts).
import "server-only";
import { headers } from "next/headers";
import { ImageResponse } from "next/og";
import { CARD_FONT_NAME, cardFont, cardText } from "@/server/og/card-text";
import { CardBusy, cachedCard, cardTag } from "@/server/og/card-cache";
import { loadPublicProtection, type PublicProtection } from "./verify-data";
import { longDate, shortHash } from "./verify-format";

export const OG_SIZE = { width: 1200, height: 630 };
export const OG_ALT = "A work protected with Hallmark: signed, and recorded in a public log anyone can check";

/** Graphemes of a title and of a creator's name on the card; longer ones end in "…". */
export const OG_TITLE_MAX = 80;
export const OG_NAME_MAX = 60;
/**
 * Browsers and link-preview crawlers may keep a card 5 minutes, then revalidate it (ETag): a
 * creator's new name, or a deleted account, shows within that.
 */
export const OG_CACHE_CONTROL = "public, max-age=300";

type Kind = "verify" | "share";

/** Everything a card draws, so a digest of it names the card (its ETag and cache key). */
interface CardContent {
  id: string;
  kind: Kind;
  title: string;
  byline: string;
  date: string;
  facts: string;
}

function contentOf(p: PublicProtection, kind: Kind): CardContent {
  const isPublic = p.visibility === "public";
  return {
    id: p.protection_id,
    kind,
    title: isPublic ? cardText(p.title ?? "Untitled work", OG_TITLE_MAX) || "Untitled work" : "A protected work",
    byline: isPublic && p.creator ? `by ${cardText(p.creator.name, OG_NAME_MAX)}` : "The creator keeps its details private",
    date: `Protected ${longDate(p.protected_at)}`,
    facts: `SHA-256 ${shortHash(p.content_hash)} · log entry #${p.log_index.toLocaleString("en")}`,
  };
}

// One array for the process's renders: the renderer keeps its parse of the fonts per array.
let fonts: { name: string; data: Buffer; weight: 400; style: "normal" }[] | undefined;
const cardFonts = () => (fonts ??= [{ name: CARD_FONT_NAME, data: cardFont().data, weight: 400, style: "normal" }]);

async function render(c: CardContent): Promise<Uint8Array> {
  const long = [...new Intl.Segmenter("und", { granularity: "grapheme" }).segment(c.title)].length > 40;
  const image = new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "64px 72px",
        background: "#134e4a",
        color: "#ffffff",
        fontFamily: CARD_FONT_NAME,
        fontSize: 32,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 20 }}>
        <div
          style={{
            width: 64,
            height: 64,
            borderRadius: 16,
            background: "#ffffff",
            color: "#115e59",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            fontSize: 40,
          }}
        >
          H
        </div>
        <div style={{ display: "flex", fontSize: 36 }}>Hallmark</div>
        <div style={{ display: "flex", marginLeft: "auto", fontSize: 28, color: "#99f6e4" }}>
          {c.kind === "verify" ? "Verify this protection" : "Protected work"}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
        <div style={{ display: "flex", fontSize: long ? 56 : 72, lineHeight: 1.1 }}>{c.title}</div>
        <div style={{ display: "flex", fontSize: 36, color: "#ccfbf1" }}>{c.byline}</div>
      </div>
      <div style={{ display: "flex", justifyContent: "space-between", fontSize: 28, color: "#ccfbf1" }}>
        <div style={{ display: "flex" }}>{c.date}</div>
        <div style={{ display: "flex" }}>{c.facts}</div>
      </div>
    </div>,
    { ...OG_SIZE, fonts: cardFonts() },
  );
  return new Uint8Array(await image.arrayBuffer());
}

/** An If-None-Match header that names `tag` (a list, or "*"). */
const matches = (header: string | null, tag: string) =>
  header !== null && header.split(",").some((t) => t.trim() === "*" || t.trim().replace(/^W\//, "") === tag);

/**
 * The answer of `<kind>/<id>/opengraph-image`: the card as PNG with its ETag (304 when the
 * client holds it), 404 for an id that is not a protection (Next's not-found, never cached here),
 * 503 with Retry-After when the renderer is too busy to draw it in time.
 */
export async function ogImage(id: string, kind: Kind): Promise<Response> {
  const content = contentOf(await loadPublicProtection(id), kind);
  const tag = cardTag(content);
  const cache = { etag: tag, "cache-control": OG_CACHE_CONTROL };
  if (matches((await headers()).get("if-none-match"), tag)) return new Response(null, { status: 304, headers: cache });
  try {
    const png = await cachedCard(tag, () => render(content));
    return new Response(png as Uint8Array<ArrayBuffer>, { headers: { ...cache, "content-type": "image/png" } });
  } catch (err) {
    if (!(err instanceof CardBusy)) throw err;
    return new Response("The image renderer is busy; try again shortly.\n", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "5" },
    });
  }
}
