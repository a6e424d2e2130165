// A proof bundle's `timestamp`: an RFC 3161 token over a checkpoint the log signed, and the
// inclusion proof of the bundle's entry in that checkpoint's tree. Together they say the entry
// existed no later than the TSA's time, on the word of a TSA the verifier pins, not Hallmark's.
import type * as pkijs from "pkijs";
import { loggedLeafData, parseProofBundle, type ProofBundle } from "./bundle-shape";
import { base64ToBytes, bytesToHex, hexToBytes, utf8Encode } from "./encoding";
import { VerifyError } from "./errors";
import { resolveLogKey, type LogPublicKey } from "./log-key";
import { verifyLogCheckpoint } from "./log-signature";
import { leafHash, verifyInclusion } from "./merkle";
import { MAX_TIMESTAMP_TOKEN_BYTES, verifyTimestampToken } from "./rfc3161";

/** The member proof bundles carry once the log has a token covering their entry. */
export interface BundleTimestamp {
  /** The checkpoint (a signed note, exactly as the log signed it) whose UTF-8 bytes the token is over. */
  checkpoint: string;
  /** The RFC 3161 TimeStampToken, DER, in base64. */
  token: string;
  /** The entry's inclusion proof in that checkpoint's tree. */
  inclusion_proof: { tree_size: number; root_hash: string; hashes: string[] };
}

export interface TimestampedEntry {
  /** The entry existed no later than this. */
  existedBy: Date;
  /** The TSA that says so (its certificate's common name). */
  tsa: string;
  /** The size of the time-stamped tree that holds the entry. */
  treeSize: number;
}

const malformed = (what: string): never => {
  throw new VerifyError("malformed_timestamp", `bundle.timestamp: ${what}`);
};

function shapeOf(t: unknown): BundleTimestamp {
  if (typeof t !== "object" || t === null || Array.isArray(t)) return malformed("is not an object");
  const o = t as Record<string, unknown>;
  if (typeof o.checkpoint !== "string" || o.checkpoint.length > 64 * 1024) malformed("checkpoint is not a signed note");
  if (typeof o.token !== "string" || o.token.length > (MAX_TIMESTAMP_TOKEN_BYTES * 4) / 3 + 4) malformed("token is not base64");
  const p = o.inclusion_proof as Record<string, unknown> | undefined;
  if (typeof p !== "object" || p === null) return malformed("inclusion_proof is missing");
  if (!Number.isSafeInteger(p.tree_size) || (p.tree_size as number) < 1) malformed("inclusion_proof.tree_size is not a size");
  if (typeof p.root_hash !== "string" || !/^[0-9a-f]{64}$/.test(p.root_hash)) malformed("inclusion_proof.root_hash is not 32 bytes of hex");
  if (!Array.isArray(p.hashes) || p.hashes.length > 64 || !p.hashes.every((h) => typeof h === "string" && /^[0-9a-f]{64}$/.test(h)))
    malformed("inclusion_proof.hashes are not 32-byte hex hashes");
  return o as unknown as BundleTimestamp;
}

/**
 * Checks a bundle's `timestamp`: the checkpoint is signed by the log's key, the bundle's entry is
 * in its tree, and the token over the checkpoint's bytes verifies against `tsaCertificates` (the
 * pinned TSA root or certificate). Answers null when the bundle carries no timestamp; throws a
 * VerifyError when it carries one that does not verify. Check the bundle itself with
 * verifyProofBundle: this proves when, not what.
 */
export async function verifyBundleTimestamp(
  input: unknown,
  opts: { logPublicKey: LogPublicKey; origin?: string; tsaCertificates: pkijs.Certificate[] },
): Promise<TimestampedEntry | null> {
  const bundle: ProofBundle = parseProofBundle(input);
  // From the parsed bundle: `input` may be its JSON text.
  const raw = (bundle as { timestamp?: unknown }).timestamp;
  if (raw === undefined) return null;
  const t = shapeOf(raw);
  const key = resolveLogKey(opts.logPublicKey, opts.origin);
  const cp = verifyLogCheckpoint(t.checkpoint, { ...key, origin: key.origin ?? bundle.signed_tree_head.origin });
  if (cp.treeSize !== t.inclusion_proof.tree_size || bytesToHex(cp.rootHash) !== t.inclusion_proof.root_hash)
    throw new VerifyError("tree_head_mismatch", "bundle.timestamp: inclusion_proof does not name the time-stamped checkpoint's tree");
  const index = bundle.inclusion_proof.log_index;
  const leaf = leafHash(loggedLeafData(bundle));
  if (!verifyInclusion(index, cp.treeSize, leaf, t.inclusion_proof.hashes.map(hexToBytes), cp.rootHash))
    throw new VerifyError(
      "inclusion_proof_invalid",
      `bundle.timestamp: entry ${index} is not in the time-stamped tree of size ${cp.treeSize}`,
    );
  let token: Uint8Array;
  try {
    token = base64ToBytes(t.token);
  } catch {
    return malformed("token is not base64");
  }
  const r = await verifyTimestampToken(token, utf8Encode(t.checkpoint), opts.tsaCertificates);
  return { existedBy: r.genTime, tsa: r.tsa, treeSize: cp.treeSize };
}
