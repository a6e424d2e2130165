import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Scalar's standalone API-reference bundle, from the installed @scalar/api-reference package
 * (read from node_modules at run time: the package's exports do not expose the file, and it is
 * served as it is, never bundled). The server runs from the repository's root.
 */
const PACKAGE_DIR = path.join(process.cwd(), "node_modules", "@scalar", "api-reference");

let version: string | undefined;
let bundle: Buffer | undefined;

/** Where /docs loads the bundle from: this origin, versioned so it can be cached for good. */
export function scalarBundlePath(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }).version;
  return `/docs/scalar.js?v=${version}`;
}

/** The bundle's bytes, read once. */
export function scalarBundle(): Buffer {
  return (bundle ??= readFileSync(path.join(PACKAGE_DIR, "dist", "browser", "standalone.js")));
}
