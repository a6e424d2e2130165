// Fingerprints of local files, computed here: nothing is sent anywhere.
//   npm run fingerprint -- [--json] <file>...
// For each file its SHA-256 and, for an image (JPEG, PNG, WebP, GIF's first frame, AVIF), its PDQ
// hash and quality, bit for bit what the pages compute in the browser from the same pixels.
// With --json, one line per file: {"file","sha256","pdq":{"hash","quality"}}, `pdq` null for a
// file that is not an image (why is printed on stderr). Exit status: 0, or 2 if a file cannot be
// read.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { MAX_IMAGE_BYTES } from "@/lib/fingerprint/image-file";
import { fingerprintBytes } from "@/lib/fingerprint/node";

const USAGE = "usage: npm run fingerprint -- [--json] <file>...";

async function sha256OfStream(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function main(): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ options: { json: { type: "boolean" }; help: { type: "boolean"; short: "h" } }; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, allowPositionals: true });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    console.error(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  let status = 0;
  for (const file of parsed.positionals) {
    let size: number;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) throw new Error("not a file");
      size = stat.size;
    } catch {
      console.error(`${file}: cannot be read`);
      status = 2;
      continue;
    }
    // A file too large to be an image is only hashed, streamed, never read whole.
    const result =
      size > MAX_IMAGE_BYTES
        ? {
            sha256: await sha256OfStream(file),
            pdq: null,
            refusal: new Error(`larger than ${MAX_IMAGE_BYTES} bytes, not fingerprinted as an image`),
          }
        : await fingerprintBytes(fs.readFileSync(file));
    if (result.refusal) console.error(`${file}: no PDQ: ${result.refusal.message}`);
    if (parsed.values.json) console.log(JSON.stringify({ file, sha256: result.sha256, pdq: result.pdq }));
    else console.log(`${result.sha256}  ${result.pdq ? `pdq ${result.pdq.hash} quality ${result.pdq.quality}` : "pdq -"}  ${file}`);
  }
  return status;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
