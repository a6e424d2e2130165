// @ts-check
// Renders public/icon.svg into the raster icons browsers and home screens ask for, with sharp
// (PNG) and png-to-ico (the multi-size favicon.ico). Run after changing the SVG:
//   node scripts/make-icons.mjs
import { readFileSync, writeFileSync } from "node:fs";
import pngToIco from "png-to-ico";
import sharp from "sharp";

const svg = readFileSync(new URL("../public/icon.svg", import.meta.url));
/** @param {string} name */
const out = (name) => new URL(`../public/${name}`, import.meta.url).pathname;
const TEAL = "#115e59";
/**
 * A square PNG; `fill` paints the rounded corners (home screens and maskable icons cut their own shape).
 * @param {number} size
 * @param {string} name
 * @param {{ pad?: number, fill?: boolean }} [options]
 */
const png = (size, name, { pad = 0, fill = false } = {}) => {
  let img = sharp(svg, { density: 72 * Math.ceil(size / 64) * 2 }).resize(size - 2 * pad, size - 2 * pad);
  if (pad) img = img.extend({ top: pad, bottom: pad, left: pad, right: pad, background: TEAL });
  if (fill) img = img.flatten({ background: TEAL });
  return img.png({ compressionLevel: 9 }).toFile(out(name));
};

await png(180, "apple-touch-icon.png", { fill: true }); // iOS rounds the corners itself
await png(192, "icon-192.png");
await png(512, "icon-512.png");
await png(512, "icon-maskable-512.png", { pad: 64, fill: true }); // the safe zone is the inner 80%
const small = await Promise.all([16, 32, 48].map((s) => sharp(svg, { density: 144 }).resize(s, s).png().toBuffer()));
writeFileSync(out("favicon.ico"), await pngToIco(small));
