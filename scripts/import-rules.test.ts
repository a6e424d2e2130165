// The layers' import rules (biome.jsonc) are real: Biome refuses an import across a layer and
// accepts the allowed ones. Each probe is a file at its layer's path in a scratch tree that
// carries the repository's Biome configuration.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const scratch = mkdtempSync(path.join(tmpdir(), "hallmark-import-rules-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const biome = path.resolve("node_modules/.bin/biome");

let n = 0;
function lint(file: string, line: string): { ok: boolean; out: string } {
  const dir = path.join(scratch, `case-${++n}`);
  mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
  copyFileSync("biome.jsonc", path.join(dir, "biome.jsonc"));
  writeFileSync(path.join(dir, file), `${line}\n\nexport const probe = 1;\n`);
  // The scratch tree is no git checkout: Biome must not look for one.
  const r = spawnSync(biome, ["lint", "--vcs-enabled=false", file], { cwd: dir, encoding: "utf8" });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

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
