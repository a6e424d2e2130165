// Offline verification; reads files only, never the network.
//   npm run verify -- bundle.json --log-key log.pem [--origin <origin>] [--policy policy.txt]
//   npm run verify -- proof.tlog-proof (--log-key log.pem | --policy policy.txt)
//   npm run verify -- certificate.pdf (--log-key log.pem | --policy policy.txt)
//   npm run verify -- consistency proof.json --log-key log.pem [--origin <origin>]
//   any of these with --successor <file>... after --log-key: follows the log's chain of shards
//   from the pinned first key (a key rotation starts a new log, whose predecessor's last entry
//   names it): each file is a shard's successor statement as a tlog-proof
//   (GET /v1/log/shards/<origin hash>/successor), in order; the proof is then checked with the
//   key the last one names. With --policy, each statement is also checked under its witnesses.
// proof.json is the body of GET /v1/log/consistency. --log-key is a file holding the log's
// PEM public key or note verifier key (GET /v1/log), or the verifier key itself. --policy is a
// C2SP tlog-policy (GET /v1/log/policy): the checkpoint must be signed by one of its logs and
// cosigned by a quorum of its witnesses. A .tlog-proof is a C2SP tlog-proof@v1 file. A
// certificate (GET /v1/protections/{id}/certificate.pdf) is checked from its attachments: the
// proof bundle and the tlog-proof, which must prove the hash and log entry its page states.
// --tsa-cert is the PEM certificate (a TSA's root, or its own) that a bundle's RFC 3161
// timestamp must chain to; with it, the bundle's `timestamp` is checked and the time stated.
// Exit status: 0 verified, 1 verification failed (the reason is printed), 2 usage or I/O error.
import fs from "node:fs";
import { parseArgs } from "node:util";
import {
  MAX_BUNDLE_BYTES,
  parsePolicy,
  parseVerifierKey,
  resolveLogKey,
  verify,
  verifyConsistencyProof,
  type Policy,
  type Trust,
  type Verification,
} from "@/lib/verify";
import { MAX_TLOG_PROOF_BYTES, TLOG_PROOF_HEADER } from "@/lib/verify/tlog-proof";
import { verifySuccessorProof } from "@/lib/verify/successor";
import { parseJson } from "@/lib/verify/json-parse";
import { MAX_PDF_BYTES, PDF_MAGIC, type PdfContents, readPdf } from "./pdf-reader";

const USAGE =
  "usage: npm run verify -- <bundle.json | proof.tlog-proof | certificate.pdf> (--log-key <log.pem | verifier key> | --policy <policy.txt>) [--origin <origin>]\n" +
  "       npm run verify -- consistency <proof.json> --log-key <log.pem | verifier key> [--origin <origin>]\n" +
  "       (either with --successor <successor.tlog-proof>... to follow the log's shards from the pinned first key)";

function fail(code: number, message: string): never {
  console.error(message);
  process.exit(code);
}

function readSmallBytes(path: string, max: number): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path);
  } catch {
    fail(2, `cannot read ${path}`);
  }
  if (stat.size > max) fail(1, `${path} is larger than ${max} bytes`);
  return fs.readFileSync(path);
}

const readSmallFile = (path: string, max = MAX_BUNDLE_BYTES): string => readSmallBytes(path, max).toString("utf8");

function readJsonFile(path: string): unknown {
  try {
    return parseJson(readSmallFile(path));
  } catch (err) {
    if (err instanceof SyntaxError) fail(1, `FAIL malformed_bundle: ${path} is not JSON`);
    throw err;
  }
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      options: {
        "log-key": { type: "string" },
        origin: { type: "string" },
        policy: { type: "string" },
        "tsa-cert": { type: "string" },
        successor: { type: "string", multiple: true, default: [] },
      },
      allowPositionals: true,
    });
  } catch (err) {
    fail(2, `${(err as Error).message}\n${USAGE}`);
  }
})();
const consistency = positionals[0] === "consistency";
const file = consistency ? positionals[1] : positionals[0];
const keyArg = values["log-key"];
if (!file || (!keyArg && (consistency || !values.policy)) || positionals.length > (consistency ? 2 : 1)) fail(2, USAGE);
const pinnedKey = keyArg ? (fs.existsSync(keyArg) ? readSmallFile(keyArg).trim() : keyArg) : undefined;
const givenPolicy = values.policy ? readPolicyFile(values.policy) : undefined;
const logPublicKey = followChain(pinnedKey, values.successor ?? []);
const origin = values.successor?.length ? undefined : values.origin;
const policy = givenPolicy && narrowPolicy(givenPolicy);

/**
 * The key the proof is checked with: the pinned one, or, with --successor files, the one the last
 * shard's successor statement names, each statement verified under the key before it.
 */
function followChain(pinned: string | undefined, files: string[]): string | undefined {
  if (!files.length) return pinned;
  if (!pinned) fail(2, "--successor follows the chain from a pinned first key: give it with --log-key");
  let log: { origin: string; publicKey: Uint8Array };
  try {
    const k = resolveLogKey(pinned, values.origin);
    if (k.mlDsa44 || !k.origin) throw new Error("the first key must be the log's Ed25519 verifier key (it names the origin)");
    log = { origin: k.origin, publicKey: k.publicKey };
  } catch (err) {
    fail(2, `--log-key: ${(err as Error).message}`);
  }
  let vkey = pinned;
  for (const f of files) {
    try {
      const step = verifySuccessorProof(readSmallFile(f, MAX_TLOG_PROOF_BYTES), log, givenPolicy);
      console.log(
        `pass chain: ${log.origin} ended at size ${step.finalSize}${givenPolicy ? " (witnessed)" : ""}; its last entry names ${step.origin}, key ${step.verifierKey}`,
      );
      log = step;
      vkey = step.verifierKey;
    } catch (err) {
      const e = err as { code?: string; message: string };
      fail(1, `FAIL ${e.code ?? "chain_invalid"}: ${f}: ${e.message}`);
    }
  }
  return vkey;
}
const tsaPem = values["tsa-cert"] ? await readTsaCertificate(values["tsa-cert"]) : undefined;

/** The TSA certificate file's text, once it is known to hold a certificate (PKI.js is loaded only for it). */
async function readTsaCertificate(path: string): Promise<string> {
  const pem = readSmallFile(path);
  const { parseCertificates } = await import("@/lib/verify/rfc3161");
  try {
    parseCertificates(pem);
  } catch (err) {
    fail(2, `--tsa-cert ${path}: ${(err as Error).message}`);
  }
  return pem;
}

function readPolicyFile(path: string): Policy {
  try {
    return parsePolicy(readSmallFile(path));
  } catch (err) {
    fail(2, `${path}: ${(err as Error).message}`);
  }
}

/** A pinned log key (or the chain's last) narrows the policy to that key; its witnesses and quorum stay. */
function narrowPolicy(p: Policy): Policy {
  if (!logPublicKey) return p;
  let key: ReturnType<typeof resolveLogKey>;
  try {
    key = resolveLogKey(logPublicKey, origin);
  } catch (err) {
    fail(2, `--log-key: ${(err as Error).message}`);
  }
  const listed = p.logs.filter((l) => Buffer.from(l.publicKey).equals(Buffer.from(key.publicKey)));
  if (listed.length || !values.successor?.length) return { ...p, logs: listed };
  // A shard the policy does not list, reached through the chain: its key, under the policy's witnesses.
  const vkey = logPublicKey.trim();
  return { ...p, logs: [{ vkey, origin: key.origin!, keyId: parseVerifierKey(vkey).keyId, publicKey: key.publicKey }] };
}

const trust: Trust = { logPublicKey, origin, policy, tsaPem, requireTimestamp: tsaPem !== undefined };

/** A verification's steps as lines (a certificate's parts under headings); exits 1 if it failed. */
function present(v: Verification): void {
  let part: string | undefined;
  for (const step of v.steps) {
    if (step.part !== part && step.part && step.part !== "certificate") console.log(`certificate attachment ${step.part}:`);
    part = step.part;
    const word = step.state === "pass" ? "pass" : step.state === "fail" ? "FAIL" : "note";
    console.log(`${word} ${step.name}: ${step.detail}`);
  }
  if (v.failure) fail(1, `FAIL ${v.failure.code}: ${v.failure.reason}`);
}

if (consistency) {
  const body = readJsonFile(file) as { first?: { checkpoint?: unknown }; second?: { checkpoint?: unknown }; hashes?: unknown };
  const result = verifyConsistencyProof(
    { first: body?.first?.checkpoint as string, second: body?.second?.checkpoint as string, proof: body?.hashes as string[] },
    { logPublicKey: logPublicKey!, origin },
  );
  if (!result.ok) fail(1, `FAIL ${result.code}: ${result.message}`);
  console.log(`OK tree ${result.first.treeSize} is a prefix of tree ${result.second.treeSize} (${result.origin})`);
} else if (isPdf(file)) {
  let pdf: PdfContents;
  try {
    pdf = await readPdf(new Uint8Array(readSmallBytes(file, MAX_PDF_BYTES)));
  } catch (err) {
    fail(1, `FAIL malformed_certificate: ${file} is not a readable PDF (${(err as Error).message})`);
  }
  present(await verify({ kind: "certificate", attachments: pdf.attachments, text: pdf.text }, trust));
  console.log(`OK certificate ${file}: its proofs verify by themselves`);
  console.log("   (the attachments are the proof; the checks above hold the page's hash and entry to them, not every word of it)");
} else if (file.endsWith(".tlog-proof") || readSmallFile(file, MAX_TLOG_PROOF_BYTES).startsWith(`${TLOG_PROOF_HEADER}\n`)) {
  const v = await verify({ kind: "tlog-proof", text: readSmallFile(file, MAX_TLOG_PROOF_BYTES) }, trust);
  present(v);
  const r = v.tlogProof!;
  const a = r.attestation;
  if (r.kind === "sealed") {
    console.log(`OK sealed entry ${r.index} (sealed ${a.created_at}) is in tree ${r.treeSize}: what it seals is its owner's`);
    console.log("   (the sealing issuer's signature is checked with its key: verify a proof bundle for that)");
  } else {
    const hash = typeof a.payload.content_hash === "string" ? ` content_hash ${a.payload.content_hash}` : "";
    console.log(`OK attestation ${a.id} by issuer ${a.issuer_id} (key ${a.kid}, ${a.created_at})${hash} is in tree ${r.treeSize}`);
    console.log(
      `   (its issuer's signature${r.sealed ? ", and the sealing issuer's on the sealed leaf, are" : " is"} checked with the issuers' keys: verify the proof bundle for that)`,
    );
  }
} else {
  const v = await verify({ kind: "bundle", bundle: readJsonFile(file) }, trust);
  present(v);
  const e = v.entry!;
  const what = v.kind === "sealed" ? "sealed entry (what it seals is its owner's)" : "attestation";
  console.log(`OK ${what} at log index ${e.logIndex} is in tree ${e.treeSize} (root ${e.rootHash})`);
}

function isPdf(path: string): boolean {
  if (path.toLowerCase().endsWith(".pdf")) return true;
  try {
    const fd = fs.openSync(path, "r");
    const head = Buffer.alloc(PDF_MAGIC.length);
    fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    return head.toString("latin1") === PDF_MAGIC;
  } catch {
    return false;
  }
}
