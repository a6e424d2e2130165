import "server-only";
import { makeBadge } from "badge-maker";
import { getDb } from "../../db";
import { notFound } from "../../errors";
import { isUuid } from "../ids";
import { urlsOf } from "./protections";

export const BADGE_THEMES = ["light", "dark"] as const;
export type BadgeTheme = (typeof BADGE_THEMES)[number];

/**
 * Colours for a light page and for a dark one: white text on Hallmark's teal (7.6:1) for light
 * pages, and dark text on light teal for dark ones (badge-maker picks the text colour by the
 * background's brightness). A plain two-part label, nothing like the C2PA "CR" pin.
 */
const COLOURS: Record<BadgeTheme, { labelColor: string; color: string }> = {
  light: { labelColor: "#44403c", color: "#115e59" },
  dark: { labelColor: "#e7e5e4", color: "#5eead4" },
};

/** "25 Nov 2026" in UTC: the day the log recorded, the same for every reader. */
const day = (d: Date) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(d);

/**
 * GET /v1/protections/{id}/badge.svg: "Protected | <date> · Hallmark", an SVG (shields.io's
 * badge-maker) whose title and aria-label say the same in words, linking to the verify page when
 * opened or embedded as an object. Only a public protection has one: a private one is 404, as
 * an unknown id (a badge is cached publicly for a day, so it is never drawn for its owner alone).
 */
export async function protectionBadge({ id, theme }: { id: string; theme: BadgeTheme }): Promise<string> {
  const row = isUuid(id)
    ? await getDb().read.protection.findUnique({ where: { id }, select: { id: true, createdAt: true, visibility: true } })
    : null;
  if (!row || row.visibility !== "public") throw notFound("Protection");
  return makeBadge({
    label: "Protected",
    message: `${day(row.createdAt)} · Hallmark`,
    style: "flat",
    ...COLOURS[theme],
    links: [urlsOf(row.id).verify_url],
  });
}
