// How well PDQ finds a protected picture from an altered copy, and how often it takes another
// picture for it: each original (a JPEG at quality 90, as a creator's file) is altered the ways
// copies are (resized, re-encoded, cropped, made grey, captioned, screenshotted), every copy is
// fingerprinted from its file with the code the pages use, and compared with every original.
import fs from "node:fs";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { pdqOfImage } from "../node";
import { pdqDistance } from "../pdq";
import { synthesize } from "./synthetic-images";

export const ALTERATIONS = {
  "resize 50%": (img: Sharp, w: number) => img.resize(Math.round(w / 2)).jpeg({ quality: 85 }),
  "resize 25%": (img: Sharp, w: number) => img.resize(Math.round(w / 4)).jpeg({ quality: 85 }),
  "JPEG quality 50": (img: Sharp) => img.jpeg({ quality: 50 }),
  "crop 5%": (img: Sharp, w: number, h: number) =>
    img
      .extract({ left: Math.round(w * 0.025), top: Math.round(h * 0.025), width: Math.round(w * 0.95), height: Math.round(h * 0.95) })
      .jpeg({ quality: 85 }),
  greyscale: (img: Sharp) => img.greyscale().jpeg({ quality: 85 }),
  "text overlay": (img: Sharp, w: number, h: number, caption: Buffer) =>
    img.composite([{ input: caption, left: Math.round(w * 0.04), top: Math.round(h * 0.86) }]).jpeg({ quality: 85 }),
  "screenshot (83%, PNG)": (img: Sharp, w: number) => img.resize(Math.round(w * 0.83), null, { kernel: "linear" }).png(),
} as const;
export type Alteration = keyof typeof ALTERATIONS;

/** The alterations a copy meets on the way through a platform: the issue's ≥ 95 % recall target. */
export const RESIZE_AND_REENCODE: Alteration[] = ["resize 50%", "resize 25%", "JPEG quality 50", "screenshot (83%, PNG)"];

export interface RecallReport {
  originals: number;
  /** Originals of quality ≤ 49, which are not matched (the reference's advice), left out. */
  lowQuality: number;
  threshold: number;
  recall: Record<Alteration, { found: number; of: number; medianDistance: number }>;
  /** Pairs (copy or original, another original) at or under the threshold, of all such pairs. */
  falseMatches: { count: number; of: number; nearest: number };
}

const FONT = path.join(process.cwd(), "node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

const captions = new Map<number, Promise<Buffer>>();
function caption(width: number): Promise<Buffer> {
  let c = captions.get(width);
  if (!c) captions.set(width, (c = renderCaption(width)));
  return c;
}

function renderCaption(width: number): Promise<Buffer> {
  return sharp({
    text: {
      text: '<span foreground="white" background="#00000099"> © reposted 2026 · @someone </span>',
      fontfile: FONT,
      font: "DejaVu Sans Bold",
      width: Math.round(width * 0.6),
      rgba: true,
      dpi: Math.max(40, Math.round(width / 6)),
    },
  })
    .png()
    .toBuffer();
}

/** Originals: `count` generated photos (width × height) and any real photos given as files. */
export async function originals(count: number, width: number, height: number, files: string[] = []): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let seed = 1000; seed < 1000 + count; seed++) {
    const px = synthesize({ kind: "photo", seed, width, height });
    out.push(
      await sharp(px.data, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
  for (const f of files) out.push(fs.readFileSync(f));
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
}

export async function measureRecall(files: Buffer[], threshold = 31): Promise<RecallReport> {
  const originalsPdq = await Promise.all(files.map((f) => pdqOfImage(f)));
  const kept = originalsPdq.map((p, i) => ({ i, ...p })).filter((p) => p.quality > 49);
  const recall = {} as RecallReport["recall"];
  let falseCount = 0;
  let falseOf = 0;
  let nearest = 256;
  const against = (hash: string, own: number) => {
    for (const o of kept) {
      if (o.i === own) continue;
      const d = pdqDistance(hash, o.hash);
      falseOf++;
      if (d < nearest) nearest = d;
      if (d <= threshold) falseCount++;
    }
  };
  for (const o of kept) against(o.hash, o.i);
  for (const [name, alter] of Object.entries(ALTERATIONS) as [Alteration, (typeof ALTERATIONS)[Alteration]][]) {
    const distances: number[] = [];
    for (const o of kept) {
      const meta = await sharp(files[o.i]).metadata();
      const w = meta.width ?? 0;
      const h = meta.height ?? 0;
      const copy = await alter(sharp(files[o.i]), w, h, name === "text overlay" ? await caption(w) : Buffer.alloc(0)).toBuffer();
      const p = await pdqOfImage(copy);
      distances.push(pdqDistance(p.hash, o.hash));
      against(p.hash, o.i);
    }
    recall[name] = { found: distances.filter((d) => d <= threshold).length, of: distances.length, medianDistance: median(distances) };
  }
  return {
    originals: files.length,
    lowQuality: files.length - kept.length,
    threshold,
    recall,
    falseMatches: { count: falseCount, of: falseOf, nearest },
  };
}

export function formatRecall(r: RecallReport): string[] {
  const lines = [
    `PDQ recall at distance ≤ ${r.threshold}: ${r.originals} originals (${r.lowQuality} of quality ≤ 49 left out)`,
    ...Object.entries(r.recall).map(
      ([name, x]) =>
        `  ${name.padEnd(22)} ${((100 * x.found) / x.of).toFixed(1).padStart(5)} % (${x.found}/${x.of}), median distance ${x.medianDistance}`,
    ),
    `  false matches: ${r.falseMatches.count} of ${r.falseMatches.of} pairs of different pictures (nearest: distance ${r.falseMatches.nearest})`,
  ];
  return lines;
}
