// The package's command-line tools (package.json's scripts, each `tsx [node flags] <file>`) as the
// tests run them: node itself with tsx's loader imported, the same command `npm run <name>` ends in,
// without npm's wrapper or tsx's launcher in front of it: two node processes fewer per call, each
// started and waited for on cores the suite keeps busy.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const scripts = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/**
 * `npm run -s <name> -- <args>` as a command and its arguments, for spawn, execFile and their kin;
 * run from the repository's root, as npm runs it (tsx reads the path aliases from tsconfig.json there).
 */
export function cli(name: string, ...args: string[]): [string, string[]] {
  const [tool, ...rest] = (scripts[name] ?? "").split(/\s+/).filter(Boolean);
  const file = rest.at(-1);
  if (tool !== "tsx" || !file || rest.slice(0, -1).some((a) => !a.startsWith("--")))
    throw new Error(`package.json's script "${name}" is not "tsx [--node-flags] <file>": run it through npm`);
  return [process.execPath, [...rest.slice(0, -1), "--import", tsxLoader, path.join(root, file), ...args]];
}
