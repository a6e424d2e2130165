// `npm run fingerprint`: one JSON line per file, PDQ for images and null for the rest, the same
// hash the library gives, and exit status 2 for a file that cannot be read.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pdqOfImage } from "@/lib/fingerprint/node";
import { synthesize } from "@/lib/fingerprint/testing/synthetic-images";

const tsx = path.resolve("node_modules/.bin/tsx");
const run = (...args: string[]) => spawnSync(tsx, ["scripts/fingerprint.ts", ...args], { encoding: "utf8" });

describe("npm run fingerprint", () => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), "hallmark-fingerprint-"));
  const photo = path.join(dir, "photo.jpg");
  const text = path.join(dir, "notes.txt");

  it("prints one JSON line per file, with PDQ for an image and null for the rest", async () => {
    const px = synthesize({ kind: "photo", seed: 70, width: 400, height: 300 });
    fs.writeFileSync(
      photo,
      await sharp(px.data, { raw: { width: 400, height: 300, channels: 3 } })
        .jpeg()
        .toBuffer(),
    );
    fs.writeFileSync(text, "not a picture\n");
    const r = run("--json", photo, text);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const expected = await pdqOfImage(fs.readFileSync(photo));
    expect(lines).toEqual([
      { file: photo, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), pdq: expected },
      { file: text, sha256: createHash("sha256").update("not a picture\n").digest("hex"), pdq: null },
    ]);
    expect(r.stderr).toContain("notes.txt: no PDQ");
  });

  it("exits 2 for a file that cannot be read, and says so", () => {
    const r = run(path.join(dir, "missing.png"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("cannot be read");
  });
});
