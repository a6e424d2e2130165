// The Open Graph image of a verify or share link (1200×630 PNG, next/og): the work's title and
// creator when it is public, "A protected work" when it is private, with the date, the short
// hash and where to check it. Only what the page itself shows anyone.
import { ImageResponse } from "next/og";
import type { PublicProtection } from "./verify-data";
import { longDate, shortHash } from "./verify-format";

export const OG_SIZE = { width: 1200, height: 630 };
export const OG_ALT = "A work protected with Hallmark: signed, and recorded in a public log anyone can check";

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

export function ogCard(p: PublicProtection, kind: "verify" | "share"): ImageResponse {
  const isPublic = p.visibility === "public";
  const title = isPublic ? clip(p.title ?? "Untitled work", 80) : "A protected work";
  const byline = isPublic && p.creator ? `by ${clip(p.creator.name, 60)}` : "The creator keeps its details private";
  return new ImageResponse(
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
          {kind === "verify" ? "Verify this protection" : "Protected work"}
        </div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
        <div style={{ display: "flex", fontSize: title.length > 40 ? 56 : 72, lineHeight: 1.1 }}>{title}</div>
        <div style={{ display: "flex", fontSize: 36, color: "#ccfbf1" }}>{byline}</div>
      </div>
      <div style={{ display: "flex", justifyContent: "space-between", fontSize: 28, color: "#ccfbf1" }}>
        <div style={{ display: "flex" }}>Protected {longDate(p.protected_at)}</div>
        <div style={{ display: "flex" }}>
          SHA-256 {shortHash(p.content_hash)} · log entry #{p.log_index.toLocaleString("en")}
        </div>
      </div>
    </div>,
    OG_SIZE,
  );
}
