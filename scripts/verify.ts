// Offline verification; reads files only, never the network.
//   npm run verify -- bundle.json --log-key log.pem [--origin <origin>]
//   npm run verify -- consistency proof.json --log-key log.pem [--origin <origin>]
// proof.json is the body of GET /v1/log/consistency. --log-key is a file holding the log's
// PEM public key or note verifier key (GET /v1/log), or the verifier key itself.
// Exit status: 0 verified, 1 verification failed (the reason is printed), 2 usage or I/O error.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { MAX_BUNDLE_BYTES, verifyConsistencyProof, verifyProofBundle } from "@/lib/verify";

const USAGE = "usage: npm run verify -- [consistency] <file.json> --log-key <log.pem | verifier key> [--origin <origin>]";

function fail(code: number, message: string): never {
  console.error(message);
  process.exit(code);
}

function readSmallFile(path: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path);
  } catch {
    fail(2, `cannot read ${path}`);
  }
  if (stat.size > MAX_BUNDLE_BYTES) fail(1, `${path} is larger than ${MAX_BUNDLE_BYTES} bytes`);
  return fs.readFileSync(path, "utf8");
}

function parseJson(path: string): unknown {
  try {
    return JSON.parse(readSmallFile(path));
  } catch (err) {
    if (err instanceof SyntaxError) fail(1, `FAIL malformed_bundle: ${path} is not JSON`);
    throw err;
  }
}

const { values, positionals } = (() => {
  try {
    return parseArgs({ options: { "log-key": { type: "string" }, origin: { type: "string" } }, allowPositionals: true });
  } catch (err) {
    fail(2, `${(err as Error).message}\n${USAGE}`);
  }
})();
const consistency = positionals[0] === "consistency";
const file = consistency ? positionals[1] : positionals[0];
const keyArg = values["log-key"];
if (!file || !keyArg || positionals.length > (consistency ? 2 : 1)) fail(2, USAGE);
const logPublicKey = fs.existsSync(keyArg) ? readSmallFile(keyArg).trim() : keyArg;
const opts = { logPublicKey, origin: values.origin };

if (consistency) {
  const body = parseJson(file) as { first?: { checkpoint?: unknown }; second?: { checkpoint?: unknown }; hashes?: unknown };
  const result = verifyConsistencyProof(
    { first: body?.first?.checkpoint as string, second: body?.second?.checkpoint as string, proof: body?.hashes as string[] },
    opts,
  );
  if (!result.ok) fail(1, `FAIL ${result.code}: ${result.message}`);
  console.log(`OK tree ${result.first.treeSize} is a prefix of tree ${result.second.treeSize} (${result.origin})`);
} else {
  const result = verifyProofBundle(parseJson(file), opts);
  for (const check of result.checks) console.log(`${check.ok ? "pass" : "FAIL"} ${check.name}: ${check.detail}`);
  if (!result.ok) fail(1, `FAIL ${result.code}: ${result.message}`);
  console.log(`OK attestation at log index ${result.logIndex} is in tree ${result.treeSize} (root ${result.rootHash})`);
}
