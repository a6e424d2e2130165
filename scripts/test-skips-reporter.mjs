// @ts-check
// A Vitest reporter that scripts/test.mjs adds to each of its Vitest runs: it writes every skipped
// test, with the reason its skip stated (`ctx.skip(reason)` or `ctx.skip(condition, reason)`; a
// static `it.skip` states none), to the JSON file named by HALLMARK_TEST_SKIPS_OUT, since Vitest's
// JSON report leaves that reason out.
import fs from "node:fs";

export default class SkipsReporter {
  /** @param {ReadonlyArray<import("vitest/node").TestModule>} modules */
  onTestRunEnd(modules) {
    const out = process.env.HALLMARK_TEST_SKIPS_OUT;
    if (!out) return;
    /** @type {{ file: string, test: string, reason: string | null }[]} */
    const skips = [];
    for (const m of modules)
      for (const t of m.children.allTests()) {
        const r = t.result();
        if (r.state === "skipped") skips.push({ file: m.moduleId, test: t.fullName, reason: r.note ?? null });
      }
    fs.writeFileSync(out, JSON.stringify(skips));
  }
}
