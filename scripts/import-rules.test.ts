// The layers' import rules are real: biome.jsonc is what scripts/lint-config.mjs makes of its
// table, and Biome, under it, refuses every import up the layers or into a bounded context's
// insides and allows the rest, and refuses any circle of imports, a type-only import included.
// Each probe is a file at its folder's path in a scratch tree that carries biome.jsonc.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { biomeConfig, CONTEXTS, LAYERS } from "./lint-config.mjs";

const scratch = mkdtempSync(path.join(tmpdir(), "hallmark-import-rules-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const biome = path.resolve("node_modules/.bin/biome");

let n = 0;
/** Biome's verdict on a scratch tree of these files (path → text), each of them linted. */
function lintTree(files: Record<string, string>): { ok: boolean; out: string } {
  const dir = path.join(scratch, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync("biome.jsonc", path.join(dir, "biome.jsonc"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  // The scratch tree is no git checkout: Biome must not look for one.
  const r = spawnSync(biome, ["lint", "--vcs-enabled=false", ...Object.keys(files)], { cwd: dir, encoding: "utf8" });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const lint = (file: string, line: string) => lintTree({ [file]: `${line}\n\nexport const probe = 1;\n` });

/** Biome's noRestrictedImports verdicts on a scratch tree of probes (path → import line): the paths it refused. */
function refusedProbes(probes: Record<string, string>): Set<string> {
  const dir = path.join(scratch, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync("biome.jsonc", path.join(dir, "biome.jsonc"));
  for (const [file, line] of Object.entries(probes)) {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), `${line}\n\nexport const probe = x;\n`);
  }
  const r = spawnSync(biome, ["lint", "--vcs-enabled=false", "--reporter=json", "--max-diagnostics=none", "."], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(r.stdout) as { diagnostics: { category: string; location: { path: string } }[] };
  return new Set(report.diagnostics.filter((d) => d.category === "lint/style/noRestrictedImports").map((d) => d.location.path));
}

/** The folder a probe sits in: "server/*" is server's own files. */
const probeDir = (folder: string, nested: boolean) => (folder === "server/*" ? "server" : nested ? `${folder}/deeper` : folder);
/** A module inside `folder` ("server/*": a file of server's own). */
const moduleIn = (folder: string) => (folder === "server/*" ? "server/errors" : `${folder}/x`);
const relative = (fromDir: string, target: string) => {
  const rel = path.posix.relative(fromDir, target);
  return rel.startsWith(".") ? rel : `./${rel}`;
};

describe("import rules: the layer table in scripts/lint-config.mjs", () => {
  it("made biome.jsonc (node scripts/lint-config.mjs)", () => {
    expect(readFileSync("biome.jsonc", "utf8")).toBe(biomeConfig());
  });

  it("refuses every import up the layers and allows every one down or across, by alias and by relative path", () => {
    const folders = LAYERS.filter((l) => l.layer <= 10)
      .flatMap((l) => l.folders.map((folder) => ({ folder, layer: l.layer })))
      .filter((f) => f.folder !== "server/generated");
    const top = ["app", "e2e", "bench", "scripts"];
    const probes: Record<string, string> = {};
    const expected = new Map<string, boolean>();
    let i = 0;
    for (const from of folders) {
      const targets = [
        ...folders.map((t) => ({ target: t.folder, refused: t.layer > from.layer || (from.layer === 0 && t.layer > 0) })),
        ...top.map((t) => ({ target: t, refused: true })),
      ];
      for (const { target, refused } of targets) {
        if (target === from.folder) continue;
        for (const nested of from.folder === "server/*" ? [false] : [false, true]) {
          const dir = probeDir(from.folder, nested);
          for (const spec of [`@/${moduleIn(target)}`, relative(dir, moduleIn(target))]) {
            const file = `${dir}/probe-${++i}.ts`;
            probes[file] = `import { x } from "${spec}";`;
            expected.set(file, refused);
          }
        }
      }
    }
    const refusedByBiome = refusedProbes(probes);
    const wrong = [...expected]
      .filter(([file, refused]) => refusedByBiome.has(file) !== refused)
      .map(([file, refused]) => `${file} (${probes[file]}): expected ${refused ? "refused" : "allowed"}`);
    expect(wrong).toEqual([]);
    expect(expected.size).toBeGreaterThan(500);
  });

  it("keeps each bounded context of server/domain behind its index, and the contexts off each other as CONTEXTS says", () => {
    const contexts = Object.keys(CONTEXTS) as (keyof typeof CONTEXTS)[];
    const probes: Record<string, string> = {};
    const expected = new Map<string, boolean>();
    let i = 0;
    const probe = (dir: string, spec: string, refused: boolean) => {
      const file = `${dir}/probe-${++i}.ts`;
      probes[file] = `import { x } from "${spec}";`;
      expected.set(file, refused);
    };
    for (const c of contexts) {
      for (const d of contexts.filter((d) => d !== c)) {
        const uses = (CONTEXTS[c].uses as readonly string[]).includes(d);
        probe(`server/domain/${c}`, `../${d}`, !uses);
        probe(`server/domain/${c}`, `@/server/domain/${d}`, !uses);
        probe(`server/domain/${c}`, `../${d}/x`, true);
        probe(`server/domain/${c}/deeper`, `../../${d}/x`, true);
      }
      probe(`server/domain/${c}`, "./x", false);
      probe(`server/domain/${c}`, "../ids", false);
      probe("server/domain", `./${c}/x`, true);
      probe("server/domain", `./${c}`, false);
      for (const outside of ["server/api", "server/auth/deeper", "server/http", "app/dashboard", "scripts", "bench", "e2e/api"]) {
        probe(outside, `@/server/domain/${c}/x`, true);
        probe(outside, `@/server/domain/${c}`, false);
        probe(outside, relative(outside, `server/domain/${c}/x`), true);
      }
    }
    const refusedByBiome = refusedProbes(probes);
    const wrong = [...expected]
      .filter(([file, refused]) => refusedByBiome.has(file) !== refused)
      .map(([file, refused]) => `${file} (${probes[file]}): expected ${refused ? "refused" : "allowed"}`);
    expect(wrong).toEqual([]);
  });

  it.each([
    ["server/domain/probe.ts", 'import { NextRequest } from "next/server";'],
    ["server/domain/accounts/probe.ts", 'import { NextRequest } from "next/server";'],
    ["lib/verify/probe.ts", 'import { readFileSync } from "node:fs";'],
    ["lib/verify/probe.ts", 'import { prisma } from "@/server/db";'],
    ["lib/fingerprint/probe.ts", 'import { getDb } from "@/server/db";'],
    ["app/probe/page.tsx", 'import { seedOrg } from "@/e2e/accounts";'],
    ["e2e/api/probe.ts", 'import { startBenchServer } from "../../bench/server";'],
  ])("refuses %s: %s", (file, line) => {
    const { ok, out } = lint(file, line);
    expect(ok, out).toBe(false);
    expect(out).toContain("noRestrictedImports");
  });

  it.each([
    ["lib/verify/probe.ts", 'import { sha256 } from "@noble/hashes/sha2.js";'],
    ["lib/verify/testing/probe.ts", 'import { readFileSync } from "node:fs";'],
    // A test may reach up to what it checks against.
    ["server/merkle/probe.test.ts", 'import { proveInclusion } from "../log/merkle-proof";'],
    ["server/domain/accounts/probe.test.ts", 'import { appRouter } from "../../api/root";'],
    ["bench/probe.ts", 'import { TestWitness } from "../e2e/witness/test-witness";'],
  ])("allows %s: %s", (file, line) => {
    const { ok, out } = lint(file, line);
    expect(ok, out).toBe(true);
  });
});

describe("import cycles", () => {
  // a → b → c, each calling the next; c's line decides whether the chain closes.
  const chain = (cLine: string, cBody: string): Record<string, string> => ({
    "server/domain/a.ts": 'import { b } from "./b";\n\nexport interface Shape {\n  n: number;\n}\n\nexport const a = (): number => b();\n',
    "server/domain/b.ts": 'import { c } from "./c";\n\nexport const b = (): number => c({ n: 1 });\n',
    "server/domain/c.ts": `${cLine}\n\nexport const c = (shape: ${cBody}): number => shape.n;\n`,
  });

  it("refuses two modules importing each other", () => {
    const { ok, out } = lintTree({
      "server/domain/a.ts": 'import { b } from "./b";\n\nexport const a = (): number => b() + 1;\n',
      "server/domain/b.ts": 'import { a } from "./a";\n\nexport const b = (): number => a() - 1;\n',
    });
    expect(ok, out).toBe(false);
    expect(out).toContain("noImportCycles");
  });

  it("refuses a circle of three modules closed by a type-only import", () => {
    const { ok, out } = lintTree(chain('import type { Shape } from "./a";', "Shape"));
    expect(ok, out).toBe(false);
    expect(out).toContain("noImportCycles");
  });

  it("allows a chain that does not close", () => {
    const { ok, out } = lintTree(chain("// the end of the chain: it imports nothing", "{ n: number }"));
    expect(ok, out).toBe(true);
  });
});
