// @hallmark-test db=sqlite lane=main
// oEmbed for share and verify links, their discovery links, and the Open Graph images the pages
// name: the work's title for public work, "A protected work" and nothing else for private work.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, expectProblem, mint, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";

async function minted(body: Record<string, unknown>) {
  const creator = await seedConsumer({ name: `Embed Creator ${randomUUID().slice(0, 6)}` });
  const res = await mint(creator.apiKey, { content_hash: randomContentHash(), ...body });
  expect(res.status, res.text).toBe(201);
  return { creator, p: res.body as { protection_id: string; verify_url: string; share_url: string } };
}

const oembed = (query: Record<string, string>) => api(`/v1/oembed?${new URLSearchParams(query)}`);

/** Fetches a PNG and answers its size, from the IHDR chunk. */
async function pngSize(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The href of the first <link>/<meta> the HTML names with this attribute=value pair. */
function headValue(html: string, pattern: RegExp): string {
  const m = pattern.exec(html);
  expect(m, String(pattern)).not.toBeNull();
  return m![1]!.replace(/&amp;/g, "&");
}

describe("oEmbed and Open Graph images", () => {
  it("embeds a public share link as its badge linking to the verify page, with the title, author and thumbnail", async () => {
    const { creator, p } = await minted({ title: "Tidal study", visibility: "public" });
    const res = await oembed({ url: p.share_url, format: "json" });
    expect(res.status, res.text).toBe(200);
    const badge = await api(`/v1/protections/${p.protection_id}/badge.svg`);
    const width = Number(/ width="(\d+)"/.exec(badge.text)![1]);
    expect(res.body).toEqual({
      version: "1.0",
      type: "rich",
      provider_name: "Hallmark",
      provider_url: `${baseUrl}/`,
      title: "Tidal study",
      author_name: creator.name,
      author_url: `${baseUrl}/portfolio/${creator.userId}`,
      cache_age: 86400,
      html: `<a href="${p.verify_url}"><img src="${baseUrl}/v1/protections/${p.protection_id}/badge.svg" alt="Protected with Hallmark: verify this work" width="${width}" height="20"></a>`,
      width,
      height: 20,
      thumbnail_url: `${p.share_url}/opengraph-image`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });
    expect(await pngSize(res.body.thumbnail_url)).toBe("1200x630");
    // A verify URL embeds the same way.
    const verify = await oembed({ url: p.verify_url });
    expect(verify.status).toBe(200);
    expect(verify.body.html).toBe(res.body.html);
  });

  it("keeps within maxwidth and maxheight: the badge scales down and a thumbnail too big is left out", async () => {
    const { p } = await minted({ visibility: "public" });
    const small = await oembed({ url: p.share_url, maxwidth: "100" });
    expect(small.status, small.text).toBe(200);
    expect(small.body.width).toBe(100);
    expect(small.body.height).toBeLessThan(20);
    expect(small.body.html).toContain(`width="100" height="${small.body.height}"`);
    expect(small.body.thumbnail_url).toBeUndefined();
    const roomy = await oembed({ url: p.share_url, maxwidth: "1600", maxheight: "900" });
    expect(roomy.body.thumbnail_width).toBe(1200);
  });

  it("knows nothing of a private protection: its oEmbed, Open Graph image and pages are 404, as an unknown id's", async () => {
    const secret = `secret-${randomContentHash().slice(0, 12)}`;
    const { p } = await minted({ title: secret, description: secret, file_name: `${secret}.png`, visibility: "private" });
    const unknown = p.share_url.replace(p.protection_id, randomUUID());
    for (const url of [p.share_url, p.verify_url]) {
      const res = await oembed({ url });
      expectProblem(res, 404, "not_found");
      expect(res.text).not.toContain(secret);
      expect(res.body.detail).toBe((await oembed({ url: unknown })).body.detail);
      for (const page of [url, `${url}/opengraph-image`]) {
        const r = await fetch(page);
        expect(r.status, page).toBe(404);
        expect(await r.text()).not.toContain(secret);
      }
    }
  });

  it("answers as the spec says: 404 for a URL that is not one of ours, 501 for a format other than json", async () => {
    const { p } = await minted({ visibility: "public" });
    expectProblem(await oembed({ url: p.share_url, format: "xml" }), 501, "format_not_implemented");
    // 501 is the oEmbed protocol's answer; through tRPC the same request is a bad one (400).
    const input = encodeURIComponent(JSON.stringify({ url: p.share_url, format: "xml" }));
    const viaTrpc = await api(`/api/trpc/public.oembed?input=${input}`);
    expect(viaTrpc.status, viaTrpc.text).toBe(400);
    expect(viaTrpc.body.error.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, appCode: "format_not_implemented" });
    const elsewhere = new URL(p.share_url);
    elsewhere.host = "evil.example";
    for (const url of [
      elsewhere.toString(),
      `${baseUrl}/portfolio/${p.protection_id}`,
      `${baseUrl}/share/${randomUUID()}`,
      "not a url",
      "javascript:alert(1)",
    ]) {
      expectProblem(await oembed({ url }), 404, "not_found");
    }
    expectProblem(await api("/v1/oembed"), 400, "invalid_parameter");
    expectProblem(await oembed({ url: p.share_url, maxwidth: "0" }), 400, "invalid_parameter");
  });

  it("share and verify pages name their oEmbed and a 1200×630 Open Graph image, as absolute URLs of this deployment", async () => {
    const { p } = await minted({ title: "Harbour lights", visibility: "public" });
    for (const page of [p.share_url, p.verify_url]) {
      const html = await (await fetch(page)).text();
      const discovery = headValue(html, /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/);
      expect(discovery.startsWith(`${baseUrl}/v1/oembed?`)).toBe(true);
      const embed = await api(discovery.slice(baseUrl.length));
      expect(embed.status).toBe(200);
      expect(embed.body.title).toBe("Harbour lights");
      const image = headValue(html, /<meta property="og:image" content="([^"]+)"/);
      expect(image.startsWith(`${page}/opengraph-image`)).toBe(true);
      expect(await pngSize(image)).toBe("1200x630");
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    }
  });
});
