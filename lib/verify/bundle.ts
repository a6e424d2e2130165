// Offline verification of a proof bundle (GET /v1/attestations/{id}/proof-bundle).
//
// Checks run in a fixed order and stop at the first failure:
//   1. checkpoint_signature  the signed tree head verifies under the pinned log key; the JSON
//                            tree head and the proof's size/root agree with the verified note
//   2. inclusion             the attestation's leaf is in that tree at attestation.log_index
//   3. attestation_signature the issuer key signed the attestation; kid/issuer bindings hold
//   4. key_validity          not_before ≤ created_at ≤ expires_at
// A sealed entry's bundle (with `seal`, lib/verify/sealed.ts) adds, after the checkpoint:
//   seal_opening             the salt and the attestation give the sealed leaf's commitment,
//                            id and created_at
// and then checks the inclusion of the sealed leaf (the one the log holds), and before the
// attestation's signature:
//   seal_signature           the sealing issuer's key signed the sealed leaf
// key_validity then covers both keys.
// Size and root are always taken from the verified checkpoint, never from the proof.
// A bundle whose attestation is itself a sealed leaf (no `seal`: someone took it from the log's
// tiles) verifies as any entry, and says so (kind "sealed"): what it seals is its owner's, and
// nothing in it names an attestation.
import { type SignedAttestationFields, verifyAttestationSignature } from "./attestation";
import { loggedLeafData, parseProofBundle, type ProofBundle } from "./bundle-shape";
import { parseSignedNote, type VerifiedCheckpoint } from "./checkpoint";
import { base64ToBytes, bytesToHex, hexToBytes } from "./encoding";
import { VerifyError, type VerifyErrorCode } from "./errors";
import { jwkThumbprint, parsePublicKeyPem } from "./keys";
import { resolveLogKey, type LogPublicKey } from "./log-key";
import { verifyLogCheckpoint, type LogKey } from "./log-signature";
import { leafHash, verifyInclusion } from "./merkle";
import { checkSealOpening, type EntryKind, entryKindOf } from "./sealed";
import { compareInstants, parseTimestamp } from "./timestamp";

export type CheckName = "checkpoint_signature" | "seal_opening" | "inclusion" | "seal_signature" | "attestation_signature" | "key_validity";

/** A bundle's checks, in the order they run. */
export const BUNDLE_CHECKS = [
  "checkpoint_signature",
  "inclusion",
  "attestation_signature",
  "key_validity",
] as const satisfies readonly CheckName[];
/** A sealed entry's bundle's checks, in the order they run. */
export const SEALED_CHECKS = [
  "checkpoint_signature",
  "seal_opening",
  "inclusion",
  "seal_signature",
  "attestation_signature",
  "key_validity",
] as const satisfies readonly CheckName[];

export interface Check {
  name: CheckName;
  ok: boolean;
  detail: string;
}

export type BundleVerification =
  | { ok: true; checks: Check[]; treeSize: number; rootHash: string; logIndex: number; kind: EntryKind }
  | { ok: false; code: VerifyErrorCode; message: string; checks: Check[] };

export interface VerifyBundleOptions {
  /** The log's public key: raw 32 bytes, PEM, or note verifier key (which also pins the origin). */
  logPublicKey: LogPublicKey;
  /** If set, the checkpoint's origin must equal it. */
  origin?: string;
  /** Size cap of the bundle's JSON (default 1 MiB). */
  maxBytes?: number;
}

function checkTreeHead(b: ProofBundle, key: LogKey): VerifiedCheckpoint {
  const sth = b.signed_tree_head;
  const cp = verifyLogCheckpoint(sth.checkpoint, key);
  const root = bytesToHex(cp.rootHash);
  if (sth.origin !== cp.origin) throw new VerifyError("origin_mismatch", "signed_tree_head.origin differs from the checkpoint origin");
  if (sth.tree_size !== cp.treeSize || sth.root_hash !== root) {
    throw new VerifyError("tree_head_mismatch", "signed_tree_head size or root differs from the signed checkpoint");
  }
  // The note may carry several log signatures (a key rotation's overlap): the JSON names one.
  const logSignatures = parseSignedNote(sth.checkpoint)
    .signatures.filter((s) => s.name === cp.origin)
    .map((s) => s.base64);
  if (!logSignatures.includes(sth.signature))
    throw new VerifyError("tree_head_mismatch", "signed_tree_head.signature is not one of the checkpoint's log signatures");
  const p = b.inclusion_proof;
  if (p.tree_size !== cp.treeSize || p.root_hash !== root) {
    throw new VerifyError("tree_head_mismatch", "inclusion_proof size or root differs from the signed checkpoint");
  }
  return cp;
}

function checkInclusion(b: ProofBundle, cp: VerifiedCheckpoint): void {
  const index = b.attestation.log_index;
  if (b.inclusion_proof.log_index !== index)
    throw new VerifyError("inclusion_proof_invalid", "inclusion_proof.log_index differs from attestation.log_index");
  if (index >= cp.treeSize)
    throw new VerifyError("inclusion_proof_invalid", `log index ${index} is outside the signed tree of size ${cp.treeSize}`);
  const leaf = leafHash(loggedLeafData(b));
  const proof = b.inclusion_proof.hashes.map(hexToBytes);
  if (!verifyInclusion(index, cp.treeSize, leaf, proof, cp.rootHash)) {
    throw new VerifyError("inclusion_proof_invalid", "the attestation is not at log_index in the signed tree");
  }
}

type Signed = { attestation: SignedAttestationFields; key: ProofBundle["key"]; issuer: ProofBundle["issuer"] };

/** The bundle's attestation with its issuer and key, or its sealed leaf with the sealing issuer and key. */
const signedParts = (b: ProofBundle, sealed: boolean): Signed =>
  sealed && b.seal ? { attestation: b.seal.leaf, key: b.seal.key, issuer: b.seal.issuer } : b;

function checkSignature({ attestation: a, key, issuer }: Signed, code: "attestation_signature_invalid" | "seal_signature_invalid"): void {
  const what = code === "seal_signature_invalid" ? "seal.leaf" : "attestation";
  const keyPath = code === "seal_signature_invalid" ? "seal.key" : "key";
  if (key.algorithm !== "Ed25519") throw new VerifyError("unsupported_algorithm", `unsupported key algorithm "${key.algorithm}"`);
  let publicKey: Uint8Array;
  try {
    publicKey = parsePublicKeyPem(key.public_key);
  } catch (e) {
    throw new VerifyError("malformed_public_key", `${keyPath}.public_key: ${(e as Error).message}`);
  }
  if (key.kid !== jwkThumbprint(publicKey))
    throw new VerifyError("key_id_mismatch", `${keyPath}.kid is not the JWK thumbprint of ${keyPath}.public_key`);
  if (a.kid !== key.kid) throw new VerifyError("key_id_mismatch", `${what}.kid differs from ${keyPath}.kid`);
  if (key.issuer_id !== a.issuer_id || issuer.id !== a.issuer_id) {
    throw new VerifyError("issuer_mismatch", `${what}.issuer_id, ${keyPath}.issuer_id and the issuer's id differ`);
  }
  let sigLength = -1;
  try {
    sigLength = base64ToBytes(a.signature).length;
  } catch {
    // reported below
  }
  if (sigLength !== 64) throw new VerifyError(code, `${what}.signature is not the base64 of a 64-byte signature`);
  if (!verifyAttestationSignature(a, publicKey)) throw new VerifyError(code, `the ${what} signature does not verify under ${keyPath}`);
}

function checkKeyValidity({ attestation, key }: Signed, keyPath: string): void {
  const created = parseTimestamp(attestation.created_at);
  const notBefore = parseTimestamp(key.not_before);
  const expires = key.expires_at == null ? null : parseTimestamp(key.expires_at);
  if (!created) throw new VerifyError("invalid_timestamp", "attestation.created_at is not a valid date-time");
  if (!notBefore) throw new VerifyError("invalid_timestamp", `${keyPath}.not_before is not a valid date-time`);
  if (key.expires_at != null && !expires) throw new VerifyError("invalid_timestamp", `${keyPath}.expires_at is not a valid date-time`);
  if (compareInstants(created, notBefore) < 0) throw new VerifyError("key_not_yet_valid", `the attestation predates ${keyPath}.not_before`);
  if (expires && compareInstants(created, expires) > 0)
    throw new VerifyError("key_expired", `the attestation was created after ${keyPath} expired`);
}

/**
 * Verifies a proof bundle (object, JSON text or UTF-8 bytes) against a pinned log key.
 * Never throws: every failure is reported with a stable code and the checks run so far.
 */
export function verifyProofBundle(bundle: unknown, opts: VerifyBundleOptions): BundleVerification {
  const checks: Check[] = [];
  let running: CheckName | null = null;
  try {
    const log = resolveLogKey(opts.logPublicKey, opts.origin);
    const b = parseProofBundle(bundle, opts.maxBytes);

    running = "checkpoint_signature";
    const cp = checkTreeHead(b, log);
    checks.push({ name: running, ok: true, detail: `tree head of ${cp.origin} at size ${cp.treeSize} is signed by the log key` });

    const seal = b.seal;
    const kind = entryKindOf(seal !== undefined, b.attestation.payload);
    if (seal) {
      running = "seal_opening";
      checkSealOpening(seal.leaf, { salt: seal.salt, attestation: b.attestation });
      checks.push({
        name: running,
        ok: true,
        detail: `the salt opens the sealed leaf's commitment ${String(seal.leaf.payload.commitment)} to the attestation`,
      });
    }

    running = "inclusion";
    checkInclusion(b, cp);
    checks.push({
      name: running,
      ok: true,
      detail: `${kind === "open" ? "attestation" : "the sealed leaf"} is leaf ${b.attestation.log_index} of ${cp.treeSize}`,
    });

    if (seal) {
      running = "seal_signature";
      checkSignature(signedParts(b, true), "seal_signature_invalid");
      checks.push({ name: running, ok: true, detail: `sealed by key ${seal.key.kid} of issuer ${seal.issuer.id}` });
    }

    running = "attestation_signature";
    checkSignature(signedParts(b, false), "attestation_signature_invalid");
    checks.push({
      name: running,
      ok: true,
      detail: `${kind === "sealed" ? "sealed" : "signed"} by key ${b.key.kid} of issuer ${b.issuer.id}`,
    });

    running = "key_validity";
    checkKeyValidity(signedParts(b, false), "key");
    if (seal) checkKeyValidity(signedParts(b, true), "seal.key");
    checks.push({
      name: running,
      ok: true,
      detail: `created_at ${b.attestation.created_at} is within the validity window of the key${seal ? " and of the sealing key" : ""}`,
    });

    return {
      ok: true,
      checks,
      treeSize: cp.treeSize,
      rootHash: bytesToHex(cp.rootHash),
      logIndex: b.attestation.log_index,
      kind,
    };
  } catch (e) {
    // Anything unexpected (e.g. a payload too deep to canonicalize) fails closed as malformed input.
    const err = e instanceof VerifyError ? e : new VerifyError("malformed_bundle", "the bundle could not be processed");
    if (running) checks.push({ name: running, ok: false, detail: err.message });
    return { ok: false, code: err.code, message: err.message, checks };
  }
}
