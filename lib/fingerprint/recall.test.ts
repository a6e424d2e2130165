// PDQ's recall under the alterations copies meet, and its false matches, on 100 generated photos
// and the reference's real ones (testing/recall.ts says how). The figures are printed; the targets
// are asserted: ≥ 95 % found after resizing and re-encoding, no unrelated picture matched.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatRecall, measureRecall, originals, RESIZE_AND_REENCODE } from "./testing/recall";

const REAL = path.join(__dirname, "testing/vectors/threatexchange-pdq/reg-test-input/labelme-subset");

describe("PDQ recall and false matches", () => {
  it("finds resized and re-encoded copies of at least 95 % of 100+ photos, and matches no unrelated one", {
    timeout: 180_000,
  }, async () => {
    const real = fs.readdirSync(REAL).map((f) => path.join(REAL, f));
    const files = await originals(100, 800, 600, [
      ...real,
      path.join(__dirname, "testing/vectors/threatexchange-pdq/bridge-mods/aaa-orig.jpg"),
    ]);
    const report = await measureRecall(files);
    console.log(formatRecall(report).join("\n"));
    expect(report.originals).toBeGreaterThanOrEqual(100);
    expect(report.originals - report.lowQuality).toBeGreaterThanOrEqual(100);
    for (const name of RESIZE_AND_REENCODE) expect(report.recall[name].found / report.recall[name].of, name).toBeGreaterThanOrEqual(0.95);
    expect(report.falseMatches.of).toBeGreaterThan(10_000);
    expect(report.falseMatches.count).toBe(0);
  });
});
