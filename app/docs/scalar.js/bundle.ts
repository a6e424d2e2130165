import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Scalar's standalone API-reference bundle, from the installed @scalar/api-reference package
 * (read from node_modules at run time: the package's exports do not expose the file, and it is
 * served as the package ships it behind a one-line prelude, never bundled). The server runs from
 * the repository's root.
 */
const PACKAGE_DIR = path.join(process.cwd(), "node_modules", "@scalar", "api-reference");

let version: string | undefined;
let bundle: Buffer | undefined;

/**
 * Run before the bundle: the zod inside it probes whether it may compile code (`new Function("")`)
 * to validate faster, which the pages' CSP refuses (and reports) as it should. zod keeps its
 * settings on globalThis, so setting `jitless` first stops the probe; zod validates the same,
 * without compiling.
 */
const PRELUDE = "globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});\n";
/** Changes with PRELUDE, so that a browser holding the bundle for good gets the new one. */
const PRELUDE_REVISION = 1;

/** Where /docs loads the bundle from: this origin, versioned so it can be cached for good. */
export function scalarBundlePath(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }).version;
  return `/docs/scalar.js?v=${version}-${PRELUDE_REVISION}`;
}

/** The bundle's bytes, read once: the prelude, then Scalar's file as the package ships it. */
export function scalarBundle(): Buffer {
  return (bundle ??= Buffer.concat([Buffer.from(PRELUDE), readFileSync(path.join(PACKAGE_DIR, "dist", "browser", "standalone.js"))]));
}
