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
  requireQuorum,
  resolveLogKey,
  verifyConsistencyProof,
  verifyProofBundle,
  verifyWitnessedCheckpoint,
  type Cosigner,
  type Policy,
} from "@/lib/verify";
import { MAX_TLOG_PROOF_BYTES, TLOG_PROOF_HEADER, type TlogProofVerification, verifyTlogProof } from "@/lib/verify/tlog-proof";
import { verifyBundleTimestamp } from "@/lib/verify/bundle-timestamp";
import { verifySuccessorProof } from "@/lib/verify/successor";
import { parseCertificates } from "@/lib/verify/rfc3161";
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
const opts = { logPublicKey: logPublicKey!, origin };
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
const tsaCertificates = values["tsa-cert"] ? readTsaCertificates(values["tsa-cert"]) : undefined;

function readTsaCertificates(path: string) {
  try {
    return parseCertificates(readSmallFile(path));
  } catch (err) {
    fail(2, `--tsa-cert ${path}: ${(err as Error).message}`);
  }
}

/** A bundle's RFC 3161 timestamp: checked with --tsa-cert, else only said to be there. Exits 1 if it fails. */
async function checkTimestamp(bundle: unknown, logKey: string) {
  if ((bundle as { timestamp?: unknown })?.timestamp === undefined) {
    if (tsaCertificates) fail(1, "FAIL timestamp_missing: --tsa-cert was given but the bundle carries no RFC 3161 timestamp");
    return;
  }
  if (!tsaCertificates) {
    console.log("note timestamp: the bundle carries an RFC 3161 timestamp; --tsa-cert <the TSA's certificate> checks it");
    return;
  }
  try {
    const t = await verifyBundleTimestamp(bundle, { logPublicKey: logKey, origin, tsaCertificates });
    console.log(
      `pass timestamp: the entry existed no later than ${t!.existedBy.toISOString()}, per ${t!.tsa} (time-stamped tree of size ${t!.treeSize})`,
    );
  } catch (err) {
    const e = err as { code?: string; message: string };
    fail(1, `FAIL ${e.code ?? "timestamp_invalid"}: ${e.message}`);
  }
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

const when = (t: number) => new Date(t * 1000).toISOString().replace(".000Z", "Z");
const cosigned = (cs: Cosigner[]) =>
  cs.length ? cs.map((c) => `${c.witness} (${c.keyName}, ${when(c.timestamp)})`).join(", ") : "no witness";

/** The policy check of a checkpoint, as a printed line; exits 1 if it fails. */
function checkWitnesses(note: string, p: Policy): void {
  try {
    const w = requireQuorum(verifyWitnessedCheckpoint(note, p));
    console.log(`pass witnesses: cosigned by ${cosigned(w.cosigners)}; quorum ${w.quorum.rule} met`);
  } catch (err) {
    const e = err as { code?: string; message: string };
    console.log(`FAIL witnesses: ${e.message}`);
    fail(1, `FAIL ${e.code ?? "malformed_checkpoint"}: ${e.message}`);
  }
}

function verifyTlogProofFile(text: string): TlogProofVerification {
  try {
    const r = verifyTlogProof(
      text,
      policy
        ? { policy }
        : (() => {
            const key = resolveLogKey(logPublicKey!, origin);
            return { logPublicKey: key.publicKey, origin, mlDsa44: key.mlDsa44 };
          })(),
    );
    console.log(`pass checkpoint_signature: tree head of ${r.origin} at size ${r.treeSize} is signed by the log key`);
    if (policy) console.log(`pass witnesses: cosigned by ${cosigned(r.cosigners)}; quorum ${r.quorum} met`);
    if (r.sealed) {
      console.log(
        `pass seal_opening: the salt opens the sealed leaf's commitment ${String(r.sealed.payload.commitment)} to the attestation`,
      );
      console.log(`pass inclusion: the sealed leaf is entry ${r.index} of ${r.treeSize}`);
    } else console.log(`pass inclusion: the leaf is entry ${r.index} of ${r.treeSize}`);
    const a = r.attestation;
    const hash = typeof a.payload.content_hash === "string" ? ` content_hash ${a.payload.content_hash}` : "";
    console.log(`OK attestation ${a.id} by issuer ${a.issuer_id} (key ${a.kid}, ${a.created_at})${hash} is in tree ${r.treeSize}`);
    console.log(
      `   (its issuer's signature${r.sealed ? ", and the sealing issuer's on the sealed leaf, are" : " is"} checked with the issuers' keys: verify the proof bundle for that)`,
    );
    return r;
  } catch (err) {
    const e = err as { code?: string; message: string };
    fail(1, `FAIL ${e.code ?? "malformed_tlog_proof"}: ${e.message}`);
  }
}

if (consistency) {
  const body = parseJson(file) as { first?: { checkpoint?: unknown }; second?: { checkpoint?: unknown }; hashes?: unknown };
  const result = verifyConsistencyProof(
    { first: body?.first?.checkpoint as string, second: body?.second?.checkpoint as string, proof: body?.hashes as string[] },
    opts,
  );
  if (!result.ok) fail(1, `FAIL ${result.code}: ${result.message}`);
  console.log(`OK tree ${result.first.treeSize} is a prefix of tree ${result.second.treeSize} (${result.origin})`);
} else if (isPdf(file)) {
  await verifyCertificate(file);
} else if (file.endsWith(".tlog-proof") || readSmallFile(file, MAX_TLOG_PROOF_BYTES).startsWith(`${TLOG_PROOF_HEADER}\n`)) {
  verifyTlogProofFile(readSmallFile(file, MAX_TLOG_PROOF_BYTES));
} else {
  const bundle = parseJson(file);
  const result = verifyBundle(bundle);
  await checkTimestamp(bundle, result.key);
}

/** A proof bundle's checks, printed; exits 1 if one fails. */
function verifyBundle(bundle: unknown) {
  // Without --log-key, the policy's key for the bundle's origin.
  const origin = (bundle as { signed_tree_head?: { origin?: unknown } })?.signed_tree_head?.origin;
  const key = logPublicKey ?? policy?.logs.find((l) => l.origin === origin)?.vkey;
  if (!key) fail(1, `FAIL unknown_log: the policy has no log key for origin "${String(origin)}"`);
  const result = verifyProofBundle(bundle, { ...opts, logPublicKey: key });
  for (const check of result.checks) console.log(`${check.ok ? "pass" : "FAIL"} ${check.name}: ${check.detail}`);
  if (!result.ok) fail(1, `FAIL ${result.code}: ${result.message}`);
  if (policy) checkWitnesses((bundle as { signed_tree_head: { checkpoint: string } }).signed_tree_head.checkpoint, policy);
  console.log(`OK attestation at log index ${result.logIndex} is in tree ${result.treeSize} (root ${result.rootHash})`);
  return { ...result, key };
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

/**
 * A certificate: its attached proof bundle and tlog-proof verified as files of their own, then
 * its page must state the SHA-256 and the log entry those attachments prove (a page is what a
 * person reads; the attachments are what proves it).
 */
async function verifyCertificate(path: string) {
  let pdf: PdfContents;
  try {
    pdf = await readPdf(new Uint8Array(readSmallBytes(path, MAX_PDF_BYTES)));
  } catch (err) {
    fail(1, `FAIL malformed_certificate: ${path} is not a readable PDF (${(err as Error).message})`);
  }
  const attached = pdf.attachments.get("proof-bundle.json");
  if (!attached) fail(1, "FAIL malformed_certificate: the PDF has no proof-bundle.json attachment");
  let bundle: { attestation?: { id?: unknown; payload?: { content_hash?: unknown } } };
  try {
    bundle = JSON.parse(Buffer.from(attached).toString("utf8"));
  } catch {
    fail(1, "FAIL malformed_bundle: the attached proof-bundle.json is not JSON");
  }
  console.log("certificate attachment proof-bundle.json:");
  const result = verifyBundle(bundle);
  await checkTimestamp(bundle, result.key);
  const proofName = [...pdf.attachments.keys()].find((n) => n.endsWith(".tlog-proof"));
  if (proofName) {
    console.log(`certificate attachment ${proofName}:`);
    const r = verifyTlogProofFile(Buffer.from(pdf.attachments.get(proofName)!).toString("utf8"));
    if (r.attestation.id !== bundle.attestation?.id)
      fail(1, "FAIL certificate_mismatch: the attached tlog-proof is of another attestation than the proof bundle");
  }
  const hash = String(bundle.attestation?.payload?.content_hash ?? "").replace(/^sha256:/, "");
  const page = pdf.text.replace(/\s+/g, "");
  if (!/^[0-9a-f]{64}$/.test(hash) || !page.includes(hash) || !page.includes(`entry${result.logIndex}of`))
    fail(1, "FAIL certificate_mismatch: the page does not state the SHA-256 and the log entry its attachments prove");
  // Every 32-byte hash the page shows is one the attachments prove: the file's, or a checkpoint's root.
  const b = bundle as { signed_tree_head?: { root_hash?: string }; timestamp?: { inclusion_proof?: { root_hash?: string } } };
  const proven = new Set([hash, b.signed_tree_head?.root_hash, b.timestamp?.inclusion_proof?.root_hash]);
  const other = (pdf.text.match(/\b[0-9a-fA-F]{64}\b/g) ?? []).find((h) => !proven.has(h.toLowerCase()));
  if (other) fail(1, `FAIL certificate_mismatch: the page shows the hash ${other}, which its attachments do not prove`);
  console.log(`pass certificate_text: the page states SHA-256 ${hash} and log entry ${result.logIndex}, as its attachments prove`);
  if (!tsaCertificates && /Time-stamped/.test(pdf.text))
    console.log("note certificate_text: the page's time-stamp line is not checked without --tsa-cert");
  console.log(`OK certificate ${path}: its proofs verify by themselves`);
  console.log("   (the attachments are the proof; the checks above hold the page's hash and entry to them, not every word of it)");
}
