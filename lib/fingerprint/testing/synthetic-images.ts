// Images made from a seed, for tests and measurements that need many distinct pictures without
// shipping them: photo-like scenes (a sky, fractal terrain, lit blobs, grain), drawings (strokes
// on paper), screenshots (windows, bars of "text"), in colour, greyscale or with alpha, any size.
// Only integer and + − × ÷ arithmetic is used, so the same seed gives the same bytes on every
// machine and Node version (no Math.sin or Math.exp, whose last bits an engine may change).
import { prng } from "../../testing/prng";
import type { Pixels } from "../pdq";

export type SyntheticKind = "photo" | "drawing" | "screenshot";

export interface SyntheticSpec {
  kind: SyntheticKind;
  seed: number;
  width: number;
  height: number;
  /** 1 grey, 3 RGB, 4 RGBA (alpha varies across the picture). */
  channels?: 1 | 3 | 4;
}

const sq = (x: number) => x * x;
const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v | 0);

// Value noise on a lattice, smoothstep-interpolated, summed over octaves: 0..1.
function fractalNoise(rand: () => number, octaves: number): (x: number, y: number) => number {
  const size = 64;
  const lattice = new Float64Array(size * size);
  for (let i = 0; i < lattice.length; i++) lattice[i] = rand();
  const at = (x: number, y: number) => lattice[(((y % size) + size) % size) * size + (((x % size) + size) % size)]!;
  const smooth = (t: number) => t * t * (3 - 2 * t);
  const value = (x: number, y: number) => {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const sx = smooth(x - x0);
    const sy = smooth(y - y0);
    const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
    const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
    return top + (bottom - top) * sy;
  };
  return (x, y) => {
    let sum = 0;
    let amp = 0.5;
    let freq = 1;
    for (let o = 0; o < octaves; o++) {
      sum += amp * value(x * freq, y * freq);
      amp /= 2;
      freq *= 2;
    }
    return sum;
  };
}

/** Paints the pixel at (u, v) in [0, 1)² into `out` as RGB (any range; clamped later). */
type Painter = (u: number, v: number, out: Float64Array) => void;

function photo(rand: () => number, width: number): Painter {
  const terrain = fractalNoise(rand, 6);
  const texture = fractalNoise(rand, 4);
  const horizon = 0.25 + rand() * 0.45;
  const sky = [rand() * 120 + 100, rand() * 120 + 110, rand() * 60 + 190];
  const ground = [rand() * 140 + 40, rand() * 140 + 40, rand() * 100 + 20];
  const blobs = Array.from({ length: 3 + Math.floor(rand() * 6) }, () => ({
    u: rand(),
    v: rand(),
    r2: sq(0.02 + rand() * 0.12),
    c: [rand() * 255, rand() * 255, rand() * 255],
  }));
  const grainSeed = Math.floor(rand() * 2 ** 31);
  const scale = 3 + rand() * 6;
  // The skyline depends on the column only: computed once per column.
  const ridges = new Float64Array(width);
  for (let x = 0; x < width; x++) ridges[x] = horizon + (terrain(((x + 0.5) / width) * scale, 7.3) - 0.5) * 0.35;
  return (u, v, out) => {
    const ridge = ridges[Math.min(width - 1, Math.floor(u * width))]!;
    if (v < ridge) {
      const t = v / ridge;
      for (let i = 0; i < 3; i++) out[i] = sky[i]! * (1 - 0.35 * t) + 40 * t;
    } else {
      const shade = (0.45 + texture(u * scale * 4, v * scale * 4) * 1.1) * (0.7 + 0.6 * (v - ridge));
      for (let i = 0; i < 3; i++) out[i] = ground[i]! * shade;
    }
    for (const b of blobs) {
      const d2 = sq(u - b.u) + sq(v - b.v);
      if (d2 < b.r2) {
        const w = (1 - d2 / b.r2) * 0.8;
        for (let i = 0; i < 3; i++) out[i] = out[i]! * (1 - w) + b.c[i]! * w;
      }
    }
    // Grain: a hash of the position, ±9 levels.
    let h = Math.imul(Math.floor(u * 65536) ^ grainSeed, 0x9e3779b1) ^ Math.imul(Math.floor(v * 65536), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    const grain = (((h ^ (h >>> 12)) >>> 0) / 4294967296 - 0.5) * 18;
    for (let i = 0; i < 3; i++) out[i]! += grain;
  };
}

function drawing(rand: () => number): Painter {
  const paper = 235 + rand() * 20;
  const shapes = Array.from({ length: 6 + Math.floor(rand() * 10) }, () => {
    const kind = rand() < 0.5 ? "ring" : "line";
    return {
      kind,
      u: rand(),
      v: rand(),
      u2: rand(),
      v2: rand(),
      r: 0.03 + rand() * 0.25,
      w: 0.004 + rand() * 0.02,
      ink: [rand() * 120, rand() * 120, rand() * 160],
    };
  });
  return (u, v, out) => {
    let rgb = [paper, paper, paper - 8];
    for (const s of shapes) {
      let d: number;
      if (s.kind === "ring") d = Math.abs(Math.sqrt(sq(u - s.u) + sq(v - s.v)) - s.r);
      else {
        const dx = s.u2 - s.u;
        const dy = s.v2 - s.v;
        const t = Math.max(0, Math.min(1, ((u - s.u) * dx + (v - s.v) * dy) / (dx * dx + dy * dy)));
        d = Math.sqrt(sq(u - s.u - t * dx) + sq(v - s.v - t * dy));
      }
      if (d < s.w) rgb = s.ink;
    }
    out.set(rgb);
  };
}

const INK = [40, 40, 48];
const WHITE = [252, 252, 252];

function screenshot(rand: () => number): Painter {
  const bg = [rand() * 60 + 190, rand() * 60 + 190, rand() * 60 + 190];
  const windows = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => {
    const u = rand() * 0.6;
    const v = rand() * 0.6;
    return {
      u,
      v,
      u2: u + 0.2 + rand() * 0.4,
      v2: v + 0.2 + rand() * 0.4,
      bar: [rand() * 200, rand() * 200, rand() * 255],
      lineH: 0.015 + rand() * 0.02,
      seed: Math.floor(rand() * 1e9),
    };
  });
  return (u, v, out) => {
    let rgb = bg;
    for (const w of windows) {
      if (u < w.u || u > w.u2 || v < w.v || v > w.v2) continue;
      if (v < w.v + 0.04) rgb = w.bar;
      else {
        const line = Math.floor((v - w.v) / w.lineH);
        const inLine = (v - w.v) / w.lineH - line < 0.6;
        const lineEnd = w.u + (w.u2 - w.u) * (0.3 + ((line * 7919 + w.seed) % 61) / 100);
        const word = Math.floor((u - w.u) * 60) % 7 !== 0;
        rgb = inLine && word && u < lineEnd && u > w.u + 0.02 ? INK : WHITE;
      }
    }
    out.set(rgb);
  };
}

const PAINTERS: Record<SyntheticKind, (rand: () => number, width: number) => Painter> = { photo, drawing, screenshot };

/** The picture a spec names; the same spec always gives the same bytes. */
export function synthesize({ kind, seed, width, height, channels = 3 }: SyntheticSpec): Pixels {
  const rand = prng(seed * 2654435761 + kind.length);
  const paint = PAINTERS[kind](rand, width);
  const rgb = new Float64Array(3);
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) / width;
      paint(u, v, rgb);
      const r = rgb[0]!;
      const g = rgb[1]!;
      const b = rgb[2]!;
      const p = (y * width + x) * channels;
      if (channels === 1) data[p] = clamp((r * 77 + g * 150 + b * 29) / 256);
      else {
        data[p] = clamp(r);
        data[p + 1] = clamp(g);
        data[p + 2] = clamp(b);
        if (channels === 4) data[p + 3] = clamp(255 * (0.15 + 0.85 * Math.abs(u - v)) + (u > 0.8 ? 255 : 0));
      }
    }
  }
  return { width, height, channels, data };
}
