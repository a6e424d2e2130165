// The icons and web manifest every page names (public/): each is there, of the type and size it
// claims, so no browser, home screen or tab asks for a file that is not there.
import { expect, test } from "./support";

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test("every icon a page names, and the manifest's, is served with its type and size", async ({ page, request }) => {
  await page.goto("/");
  const links = await page
    .locator('head link[rel~="icon"], head link[rel="apple-touch-icon"], head link[rel="manifest"]')
    .evaluateAll((els) =>
      els.map((e) => ({
        rel: e.getAttribute("rel")!,
        href: e.getAttribute("href")!,
        type: e.getAttribute("type"),
        sizes: e.getAttribute("sizes"),
      })),
    );
  expect(links.map((l) => l.rel).sort()).toEqual(["apple-touch-icon", "icon", "icon", "manifest"]);

  const icons: { href: string; type: string | null; sizes: string | null }[] = links.filter((l) => l.rel !== "manifest");
  const manifestHref = links.find((l) => l.rel === "manifest")!.href;
  const manifest = await request.get(manifestHref);
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const parsed = (await manifest.json()) as { name: string; icons: { src: string; sizes: string; type: string }[] };
  expect(parsed.name).toBe("Hallmark");
  icons.push(...parsed.icons.map((i) => ({ href: i.src, type: i.type, sizes: i.sizes })));

  for (const icon of [...icons, { href: "/favicon.ico", type: "image/x-icon", sizes: null }]) {
    const res = await request.get(icon.href);
    expect(res.status(), icon.href).toBe(200);
    const type = res.headers()["content-type"] ?? "";
    const body = await res.body();
    if (icon.href.endsWith(".png")) {
      expect(type, icon.href).toBe("image/png");
      if (icon.sizes) expect(pngSize(body), icon.href).toBe(icon.sizes);
    } else if (icon.href.endsWith(".svg")) {
      expect(type, icon.href).toMatch(/^image\/svg\+xml/);
      expect(body.toString("utf8")).toContain("<svg");
    } else {
      expect(type, icon.href).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
      expect(body.readUInt16LE(2), "an ICO's type field").toBe(1);
      expect(body.readUInt16LE(4), "sizes in favicon.ico").toBe(3);
    }
  }
});
