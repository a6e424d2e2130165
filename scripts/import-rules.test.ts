// The layers' import rules (biome.jsonc) are real: Biome refuses an import across a layer and
// accepts the allowed ones, and refuses any circle of imports, a type-only import included. Each
// probe is a file (or a few) at its layer's path in a scratch tree that carries the repository's
// Biome configuration.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

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

describe("import rules", () => {
  it.each([
    ["server/domain/probe.ts", 'import { readJsonBody } from "../http/body";'],
    ["server/domain/probe.ts", 'import { appRouter } from "../api/root";'],
    ["server/domain/probe.ts", 'import { appRouter } from "@/server/api/root";'],
    ["server/domain/probe.ts", 'import { apiRoute } from "@/server/http/api-route";'],
    ["server/domain/probe.ts", 'import { NextRequest } from "next/server";'],
    ["server/domain/probe.ts", 'import { Ui } from "@/app/_components/ui";'],
    ["lib/verify/probe.ts", 'import { readFileSync } from "node:fs";'],
    ["lib/verify/probe.ts", 'import { getConfig } from "../../server/config";'],
    ["lib/verify/probe.ts", 'import { prisma } from "@/server/db";'],
    // Every server folder imports only from the layers below it.
    ["server/domain/probe.ts", 'import { login } from "../auth/login";'],
    ["server/store/probe.ts", 'import { getSequencer } from "../log/sequencer";'],
    ["server/log/probe.ts", 'import { createAttestation } from "../domain/attestations";'],
    ["server/merkle/probe.ts", 'import { getStore } from "@/server/store";'],
    ["server/crypto/probe.ts", 'import { appendLeaves } from "../merkle/merkle-tree";'],
    ["server/auth/probe.ts", 'import { appRouter } from "../api/root";'],
    ["server/api/probe.ts", 'import { apiRoute } from "../http/api-route";'],
    ["server/observability/probe.ts", 'import { getLogIdentity } from "../log/log-identity";'],
    ["server/probe.ts", 'import { AppError } from "./domain/accounts";'],
    ["server/http/probe.ts", 'import { readiness } from "@/server/ops/readiness";'],
    ["server/log/probe.ts", 'import { seedOrg } from "../../e2e/accounts";'],
    ["lib/fingerprint/probe.ts", 'import { getDb } from "@/server/db";'],
    ["lib/probe.ts", 'import { Ui } from "../app/_components/ui";'],
    ["e2e/api/probe.ts", 'import { startBenchServer } from "../../bench/server";'],
    ["app/probe/page.tsx", 'import { seedOrg } from "@/e2e/accounts";'],
  ])("refuses %s: %s", (file, line) => {
    const { ok, out } = lint(file, line);
    expect(ok, out).toBe(false);
    expect(out).toContain("noRestrictedImports");
  });

  it.each([
    ["server/domain/probe.ts", 'import { canonicalJson } from "@/lib/verify/jcs";'],
    ["server/domain/probe.ts", 'import { AppError } from "../errors";'],
    ["lib/verify/probe.ts", 'import { sha256 } from "@noble/hashes/sha2.js";'],
    ["lib/verify/testing/probe.ts", 'import { readFileSync } from "node:fs";'],
    ["server/http/probe.ts", 'import { appRouter } from "../api/root";'],
    ["server/log/probe.ts", 'import type { Checkpoint } from "../store/types";'],
    ["server/domain/probe.ts", 'import { getSequencer } from "../log/sequencer";'],
    ["server/ops/probe.ts", 'import { gzipCacheUse } from "../http/gzip-cache";'],
    ["server/probe.ts", 'import { logger } from "./observability/logger.mjs";'],
    // A test may reach up to what it checks against.
    ["server/merkle/probe.test.ts", 'import { proveInclusion } from "../log/merkle-proof";'],
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
