#!/usr/bin/env node
// @ts-check
// The layers of the code base and the bounded contexts of server/domain, in one table, and the
// Biome configuration made from it:
//
//   node scripts/lint-config.mjs           writes biome.jsonc (then formats it with Biome)
//   node scripts/lint-config.mjs --check   exits 1 if biome.jsonc is not what the table makes
//
// scripts/import-rules.test.ts reads the same table and lints a probe across every pair of layers.
// Biome matches an import by its text, not by the file it names, so each rule lists the forms an
// import can take: the "@/" alias and relative paths from every depth a file may sit at.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The layers, bottom first: a folder imports only from its own layer and those below.
 * `folders` are repository paths; "server/*" stands for server's own files (config, database,
 * errors, process-wide values). Test files (*.test.ts, *.cases.ts) may reach up to what they check.
 * @type {{ layer: number, folders: string[], note: string }[]}
 */
export const LAYERS = [
  { layer: 0, folders: ["lib"], note: "shared with browsers; lib/verify imports nothing from node:* either" },
  {
    layer: 1,
    folders: ["server/*", "server/observability", "server/generated"],
    note: "config, database, errors, process-wide values; logging and metrics; the Prisma clients",
  },
  { layer: 2, folders: ["server/crypto", "server/limits", "server/mail", "server/og", "server/gate"], note: "" },
  { layer: 3, folders: ["server/merkle"], note: "the tree's vocabulary" },
  { layer: 4, folders: ["server/store"], note: "" },
  { layer: 5, folders: ["server/log", "server/cosigner"], note: "" },
  { layer: 6, folders: ["server/domain"], note: "no `next` either" },
  { layer: 7, folders: ["server/auth"], note: "" },
  { layer: 8, folders: ["server/api"], note: "" },
  { layer: 9, folders: ["server/http", "server/pages"], note: "" },
  { layer: 10, folders: ["server/ops"], note: "readiness and server metrics: it reads every layer" },
  { layer: 11, folders: ["app", "scripts", "e2e", "bench"], note: "bench uses e2e's test peers" },
];

/** Within layer 11, what a folder must not import: what ships never imports a test, a bench or a script. */
/** @type {Record<string, { refuses: string[], message: string } | undefined>} */
export const TOP_RULES = {
  app: { refuses: ["e2e", "bench", "scripts"], message: "The web app ships: it imports no test, bench or script." },
  e2e: {
    refuses: ["bench"],
    message: "e2e is below bench (a bench may start e2e's test peers; a test never runs a bench): shared helpers go to lib/testing.",
  },
};

/**
 * server/domain's bounded contexts, each a folder whose index.ts is its public face: anything
 * outside a context imports it through that index, never a file inside it. `uses` is what each
 * may import (the contexts form no circle); the domain's loose files (ids, json-pointer,
 * idempotency, payload-types, viewer) sit beside them.
 */
/** @type {Record<ContextName, { uses: ContextName[], holds: string }>} */
export const CONTEXTS = {
  plans: { uses: [], holds: "an account's plan, its monthly mint quota and the request budgets it bounds keys to" },
  accounts: { uses: ["plans"], holds: "sign-up, login, sessions, e-mailed links and their budgets, resets, organisations, API keys" },
  attestations: { uses: [], holds: "issuers and their keys, signing one attestation or a batch, sealing a private one" },
  "public-log": { uses: ["attestations"], holds: "tree heads, proof bundles, the log's keys, policy and shards" },
  packs: { uses: ["attestations", "public-log"], holds: "verification packs, their templates, and verifications" },
  protections: {
    uses: ["accounts", "plans", "attestations", "public-log"],
    holds: "minting, listing, visibility, public reads, lookups, badges, certificates, the export",
  },
};

/** @typedef {"plans" | "accounts" | "attestations" | "public-log" | "packs" | "protections"} ContextName */
/** @typedef {{ group: string[], message: string }} Pattern */

const ROOT_FOLDERS = ["app", "e2e", "bench", "scripts"];
/** How many folders deep below its layer folder a file may sit (server/domain/accounts/x.ts: 1). */
const MAX_NESTING = 3;
/** @param {number} n */
const ups = (n) => "../".repeat(n);

/**
 * Every text an import of `target` (a repository folder) can have from a file under `from`.
 * @param {string} from
 * @param {string} target
 */
function importForms(from, target) {
  const forms = [`@/${target}`, `@/${target}/**`];
  const fromDepth = from === "server/*" ? 1 : from.split("/").length;
  for (let extra = 0; extra <= MAX_NESTING; extra++) {
    const depth = fromDepth + extra; // folders between the repository root and the importing file
    // Relative to the nearest common folder of the two.
    const fromParts = from === "server/*" ? ["server"] : from.split("/");
    const targetParts = target.split("/");
    let common = 0;
    while (common < fromParts.length && common < targetParts.length && fromParts[common] === targetParts[common]) common++;
    const up = depth - common;
    const rest = targetParts.slice(common).join("/");
    const prefix = up === 0 ? "./" : ups(up);
    forms.push(`${prefix}${rest}`, `${prefix}${rest}/**`);
  }
  return [...new Set(forms)];
}

/** @param {string} folder */
const layerOf = (folder) => LAYERS.find((l) => l.folders.includes(folder))?.layer ?? 0;
const serverFolders = LAYERS.flatMap((l) => l.folders).filter((f) => f.startsWith("server/") && f !== "server/*");
const chain = LAYERS.filter((l) => l.layer >= 1 && l.layer <= 10)
  .map((l) => l.folders.map((f) => (f === "server/*" ? "server" : f.slice("server/".length))).join("/"))
  .join(" < ");

/**
 * The import patterns that keep a file under `from` (outside context `own`) out of other contexts' insides.
 * @param {string} from
 * @param {ContextName | null} own
 * @returns {Pattern}
 */
function contextPatterns(from, own) {
  const group = /** @type {ContextName[]} */ (Object.keys(CONTEXTS))
    .filter((c) => c !== own)
    .flatMap((c) => importForms(from, `server/domain/${c}`).filter((f) => f.endsWith("/**")));
  return {
    group,
    message: "A bounded context of server/domain is imported through its index.ts only (scripts/lint-config.mjs CONTEXTS).",
  };
}

/**
 * What a context may not import: the contexts it does not use (they would close a circle).
 * @param {ContextName} own
 * @returns {Pattern[]}
 */
function contextUsePatterns(own) {
  const refused = /** @type {ContextName[]} */ (Object.keys(CONTEXTS)).filter((c) => c !== own && !CONTEXTS[own].uses.includes(c));
  if (!refused.length) return [];
  return [
    {
      group: refused.flatMap((c) => importForms(`server/domain/${own}`, `server/domain/${c}`)),
      message: `server/domain/${own} uses ${CONTEXTS[own].uses.join(", ") || "no other context"} (scripts/lint-config.mjs CONTEXTS).`,
    },
  ];
}

const NEXT_PATHS = Object.fromEntries(
  ["next", "next/headers", "next/server", "next/navigation"].map((p) => [
    p,
    "The domain knows nothing of HTTP or Next.js: return facts, let the edge map them.",
  ]),
);

/**
 * @param {string[]} includes
 * @param {Pattern[]} patterns
 * @param {Record<string, string>} [paths]
 */
function restrict(includes, patterns, paths) {
  return {
    includes,
    linter: {
      rules: {
        style: {
          noRestrictedImports: {
            level: "error",
            options: { patterns: patterns.filter((p) => p.group.length), ...(paths ? { paths } : {}) },
          },
        },
      },
    },
  };
}

const NOT_TESTS = ["!**/*.test.ts", "!**/*.cases.ts"];
/** What a test file is named, e2e's browser specs included. */
const TESTS = ["**/*.test.ts", "**/*.cases.ts", "**/*.spec.ts"];

/** The overrides the table makes, one per set of files (Biome applies the last override of a rule whole). */
export function layerOverrides() {
  const out = [];
  for (const folder of LAYERS.filter((l) => l.layer >= 1 && l.layer <= 10).flatMap((l) => l.folders)) {
    if (folder === "server/generated") continue;
    const above = serverFolders.filter((f) => layerOf(f) > layerOf(folder));
    /** @param {string} from @returns {Pattern} */
    const layerPatterns = (from) => ({
      group: [
        ...above.flatMap((f) => importForms(from, f)),
        ...ROOT_FOLDERS.flatMap((f) => importForms(from, f).filter((x) => x.endsWith("/**"))),
      ],
      message: `${folder === "server/*" ? "server's own files" : folder} import only from the layers below (${chain}; scripts/lint-config.mjs LAYERS).`,
    });
    const paths = folder === "server/domain" ? NEXT_PATHS : undefined;
    if (folder === "server/*") {
      out.push(restrict(["server/*.ts", "server/*.mjs", "!server/*.test.ts"], [layerPatterns(folder), contextPatterns(folder, null)]));
    } else if (folder === "server/domain") {
      const contexts = /** @type {ContextName[]} */ (Object.keys(CONTEXTS));
      out.push(
        restrict(
          ["server/domain/**", ...contexts.map((c) => `!server/domain/${c}/**`), ...NOT_TESTS],
          [layerPatterns(folder), contextPatterns(folder, null)],
          paths,
        ),
      );
      for (const c of contexts) {
        const from = `server/domain/${c}`;
        out.push(restrict([`${from}/**`, ...NOT_TESTS], [layerPatterns(from), contextPatterns(from, c), ...contextUsePatterns(c)], paths));
      }
    } else {
      out.push(restrict([`${folder}/**`, ...NOT_TESTS], [layerPatterns(folder), contextPatterns(folder, null)]));
    }
  }
  /** @param {string} from */
  const libGroup = (from) => ["server", ...ROOT_FOLDERS].flatMap((f) => importForms(from, f).filter((x) => x.endsWith("/**")));
  out.push(
    restrict(
      ["lib/**", "!lib/verify/**", "!**/*.test.ts"],
      [
        {
          group: libGroup("lib"),
          message: "lib is the bottom, shared with browsers and every other folder: it imports from none of them.",
        },
      ],
    ),
    restrict(
      ["lib/verify/**", "!lib/verify/testing/**", "!lib/verify/**/*.test.ts"],
      [
        {
          group: ["node:*", ...libGroup("lib/verify")],
          message: "lib/verify runs in browsers and anywhere else: it imports nothing from server or node:*.",
        },
      ],
    ),
  );
  // Test files may reach into a context to check what they check; e2e's tests are still held below bench.
  for (const folder of ROOT_FOLDERS) {
    const rule = TOP_RULES[folder];
    const own = rule
      ? [{ group: rule.refuses.flatMap((f) => importForms(folder, f).filter((x) => x.endsWith("/**"))), message: rule.message }]
      : [];
    out.push(restrict([`${folder}/**`, ...TESTS.map((t) => `!${t}`)], [...own, contextPatterns(folder, null)]));
    if (own.length)
      out.push(
        restrict(
          TESTS.map((t) => `${folder}/${t}`),
          own,
        ),
      );
  }
  return out;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = path.join(root, "biome.jsonc");
const HEAD = fs.readFileSync(path.join(root, "scripts", "biome-base.jsonc"), "utf8");

/** biome.jsonc as the table makes it, formatted as Biome formats it. */
export function biomeConfig() {
  const inner = layerOverrides()
    .map((o) => JSON.stringify(o))
    .join(",\n");
  const marker = /\n\s*\/\/ LAYER OVERRIDES:.*\n/;
  if (!marker.test(HEAD)) throw new Error("scripts/biome-base.jsonc has lost its LAYER OVERRIDES line");
  const text = HEAD.replace(/^(\/\/.*\n)+/, "").replace(marker, `,\n${inner}\n`);
  const banner = "// Made by `node scripts/lint-config.mjs` from scripts/biome-base.jsonc and its layer table: edit those.\n";
  return execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", "--stdin-file-path=biome.jsonc"], {
    input: banner + text,
    cwd: root,
    encoding: "utf8",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const made = biomeConfig();
  if (process.argv.includes("--check")) {
    if (fs.readFileSync(CONFIG, "utf8") !== made) {
      console.error("biome.jsonc is not what scripts/lint-config.mjs makes: run `node scripts/lint-config.mjs`.");
      process.exit(1);
    }
  } else {
    fs.writeFileSync(CONFIG, made);
  }
}
