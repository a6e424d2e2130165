// @hallmark-test db=sqlite lane=main
// The Open Graph images of verify and share links: drawn on this machine with the fonts that ship
// with Hallmark, whatever the script of the title (what the font lacks is drawn as a box), never
// fetching anything; cached by what they draw, with an ETag.
import { randomUUID } from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { baseUrl, dbKind, mint, randomContentHash } from "./helpers";
import { itWhere } from "./only-where";
import { seedConsumer } from "../accounts";
import { OwnServer } from "./own-server";

const TITLES = {
  latin: "Harbour lights at dusk",
  cyrillic: "Огни гавани в сумерках",
  arabic: "أضواء الميناء عند الغسق",
  cjk: "黄昏時の港の灯り 黄昏时的港口灯光",
  emoji: "Harbour 🌅⚓ lights 👩‍🎨🏳️‍🌈",
  mixed: "Ἀθῆναι · שלום · Բարեւ · ქართული · नमस्ते · ไทย · Z̴̡̢͎̤a̸̧͉l̷g̶o̶",
  // The most a title holds (200 UTF-16 units): far more than a card draws, with a grapheme of 61 code points.
  long: `a${"\u0301".repeat(60)}${"ж".repeat(139)}`,
};

async function minted(title: string, creatorName = `OG Creator ${randomUUID().slice(0, 6)}`) {
  const creator = await seedConsumer({ name: creatorName });
  const res = await mint(creator.apiKey, { content_hash: randomContentHash(), title, visibility: "public" });
  expect(res.status, res.text).toBe(201);
  return res.body as { protection_id: string; verify_url: string; share_url: string };
}

/** The image at `url` (from `server`, the suite's by default): a PNG of 1200×630, with its answer's headers. */
async function card(url: string, server = baseUrl) {
  const res = await fetch(url.replace(baseUrl, server));
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "png", width: 1200, height: 630 });
  return { res, bytes };
}

describe("Open Graph images", () => {
  it("draw a 1200×630 PNG for titles and names in any script, share and verify alike", async () => {
    for (const [script, title] of Object.entries(TITLES)) {
      const p = await minted(title, script === "latin" ? "Ада Лавлейс 李白 🎨" : undefined);
      for (const page of [p.share_url, p.verify_url]) {
        const { bytes } = await card(`${page}/opengraph-image`);
        expect(bytes.length, script).toBeGreaterThan(5_000);
      }
    }
  });

  it("carry an ETag and a short public Cache-Control, and answer 304 to a client that holds the card", async () => {
    const p = await minted(TITLES.cyrillic);
    const url = `${p.share_url}/opengraph-image`;
    const first = await card(url);
    const etag = first.res.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.res.headers.get("cache-control")).toBe("public, max-age=300");
    const again = await card(url);
    expect(again.res.headers.get("etag")).toBe(etag);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const held = await fetch(url, { headers: { "if-none-match": etag! } });
    expect(held.status).toBe(304);
    expect(held.headers.get("etag")).toBe(etag);
    // The verify page's card draws another heading: another card, another tag.
    const verify = await card(`${p.verify_url}/opengraph-image`);
    expect(verify.res.headers.get("etag")).not.toBe(etag);
  });

  it("answer 404, never cached, for an id that is no protection", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const res = await fetch(`${baseUrl}/share/${id}/opengraph-image`);
      expect(res.status, id).toBe(404);
      expect(res.headers.get("content-type") ?? "").not.toMatch(/^image\//);
      expect(res.headers.get("etag")).toBeNull();
      expect(res.headers.get("cache-control") ?? "").not.toMatch(/public|max-age=[1-9]/);
    }
  });

  // A server of its own, on the suite's database, watched for any connection that leaves the machine
  // (once: drawing does not depend on the database).
  itWhere(dbKind === "sqlite", "drawing does not depend on the database: watched once, on SQLite")(
    "reach no other host: no font, emoji or anything else is fetched while drawing",
    async () => {
      const server = await OwnServer.start(process.env, { nodeArgs: ["--import", path.resolve("e2e/api/outbound-watch.mjs")] });
      try {
        await server.ready();
        await server.line((l) => l.msg === "outbound watch on");
        for (const title of Object.values(TITLES)) {
          const p = await minted(title, "Ада 李白 🎨");
          await card(`${p.share_url}/opengraph-image`, server.url);
          await card(`${p.verify_url}/opengraph-image`, server.url);
        }
        expect(server.lines.filter((l) => l.msg === "outbound connection")).toEqual([]);
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});
