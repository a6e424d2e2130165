// @hallmark-test db=sqlite lane=main
// GET /v1/protections/{id}/badge.svg: an accessible SVG that renders, links to the verify page,
// comes in a light and a dark variant, and is drawn for public protections only.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, expectProblem, mint, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";

const day = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(iso));

async function minted(body: Record<string, unknown>) {
  const { apiKey } = await seedConsumer({ name: "Badge Maker" });
  const res = await mint(apiKey, { content_hash: randomContentHash(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { protection_id: string; protected_at: string; verify_url: string };
}

describe("protection badges", () => {
  it("is an SVG that renders, says what it shows in words and links to the verify page", async () => {
    const p = await minted({ title: "Badged work", visibility: "public" });
    const res = await api(`/v1/protections/${p.protection_id}/badge.svg`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const words = `Protected: ${day(p.protected_at)} · Hallmark`;
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.text).toContain(`role="img" aria-label="${words}"`);
    expect(res.text).toContain(`<title>${words}</title>`);
    expect(res.text).toContain(`href="${baseUrl}/verify/${p.protection_id}"`);
    // It renders: a real rasteriser (librsvg, through sharp) draws it at its declared size.
    const png = await sharp(Buffer.from(res.text)).png().toBuffer({ resolveWithObject: true });
    expect(png.info.height).toBe(20);
    expect(png.info.width).toBeGreaterThan(120);
    const { data, info } = await sharp(Buffer.from(res.text)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    // The message's padding is Hallmark's teal (under the flat style's faint gradient).
    const teal = [0x11, 0x5e, 0x59];
    for (const [i, c] of at(info.width - 3, 10).entries()) expect(Math.abs(c - teal[i]!)).toBeLessThan(24);
  });

  it("has a dark variant, and refuses a theme it does not know", async () => {
    const p = await minted({ visibility: "public" });
    const light = await api(`/v1/protections/${p.protection_id}/badge.svg?theme=light`);
    const dark = await api(`/v1/protections/${p.protection_id}/badge.svg?theme=dark`);
    expect(light.status).toBe(200);
    expect(dark.status).toBe(200);
    expect(dark.text).not.toBe(light.text);
    expect(dark.text).toContain('fill="#5eead4"');
    expect(light.text).toBe((await api(`/v1/protections/${p.protection_id}/badge.svg`)).text);
    const bad = await api(`/v1/protections/${p.protection_id}/badge.svg?theme=purple`);
    expectProblem(bad, 400, "invalid_parameter");
    expect(bad.body.errors[0].pointer).toBe("/theme");
  });

  it("is not drawn for a private protection, even for its owner: 404, as for an unknown id", async () => {
    const secret = `secret-${randomContentHash().slice(0, 12)}`;
    const { apiKey } = await seedConsumer({ name: "Badge Maker" });
    const p = (await mint(apiKey, { content_hash: randomContentHash(), title: secret, visibility: "private" })).body;
    for (const key of [undefined, apiKey]) {
      const res = await api(`/v1/protections/${p.protection_id}/badge.svg`, { key });
      expectProblem(res, 404, "not_found");
      expect(res.text).not.toContain(secret);
    }
  });

  it("answers an unknown protection with 404 problem+json", async () => {
    expectProblem(await api("/v1/protections/00000000-0000-4000-8000-000000000000/badge.svg"), 404, "not_found");
    expectProblem(await api("/v1/protections/not-an-id/badge.svg"), 404, "not_found");
  });
});
