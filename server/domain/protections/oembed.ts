import "server-only";
import { getConfig } from "../../config";
import { AppError, notFound } from "../../errors";
import { protectionBadge } from "./badges";
import { getPublicProtection } from "./public-protections";

/** The oEmbed 1.0 answer for a share or verify URL (https://oembed.com, type "rich"). */
export interface OEmbed {
  version: "1.0";
  type: "rich";
  provider_name: "Hallmark";
  provider_url: string;
  title: string;
  author_name?: string;
  author_url?: string;
  cache_age: number;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

const PAGE = /^\/(share|verify)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/;
const THUMBNAIL = { width: 1200, height: 630 };
const BADGE_ALT = "Protected with Hallmark: verify this work";

/** The protection a URL of this deployment's share or verify pages names, or null. */
function protectionIdOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(getConfig().baseUrl).origin) return null;
  return PAGE.exec(parsed.pathname)?.[2] ?? null;
}

/**
 * GET /v1/oembed: what a site that embeds a share or verify link shows. The embed is the badge
 * inside a link to the verify page (no script, no iframe); the thumbnail is the page's Open Graph
 * image. It is read as by anyone (no viewer), so a private protection's URL is 404, as an
 * unknown id's. Per the spec: a URL that is not one of ours is 404, a format other than json is
 * 501, and maxwidth and maxheight bound the embed (the badge scales down) and the thumbnail (left
 * out if too big).
 */
export async function oembedOf(input: { url: string; format?: string; maxwidth?: number; maxheight?: number }): Promise<OEmbed> {
  if (input.format !== undefined && input.format !== "json") {
    throw new AppError("format_not_implemented", `Only format=json is served, not "${input.format.slice(0, 40)}".`);
  }
  const id = protectionIdOf(input.url);
  if (!id) throw notFound("Embeddable Hallmark page");
  const p = await getPublicProtection({ id });
  const svg = await protectionBadge({ id, theme: "light" });
  const badge = { width: Number(/ width="(\d+)"/.exec(svg)![1]), height: Number(/ height="(\d+)"/.exec(svg)![1]) };
  const scale = Math.min(1, (input.maxwidth ?? Infinity) / badge.width, (input.maxheight ?? Infinity) / badge.height);
  const width = Math.max(1, Math.floor(badge.width * scale));
  const height = Math.max(1, Math.floor(badge.height * scale));
  const badgeUrl = `${getConfig().baseUrl}/v1/protections/${id}/badge.svg`;
  const thumbnailFits = (input.maxwidth ?? Infinity) >= THUMBNAIL.width && (input.maxheight ?? Infinity) >= THUMBNAIL.height;
  return {
    version: "1.0",
    type: "rich",
    provider_name: "Hallmark",
    provider_url: `${getConfig().baseUrl}/`,
    title: p.title ?? "Untitled work",
    ...(p.creator ? { author_name: p.creator.name, author_url: p.creator.portfolio_url } : {}),
    cache_age: 86_400,
    html: `<a href="${p.verify_url}"><img src="${badgeUrl}" alt="${BADGE_ALT}" width="${width}" height="${height}"></a>`,
    width,
    height,
    ...(thumbnailFits
      ? { thumbnail_url: `${p.share_url}/opengraph-image`, thumbnail_width: THUMBNAIL.width, thumbnail_height: THUMBNAIL.height }
      : {}),
  };
}
