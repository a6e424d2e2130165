// Offline verification that one signed checkpoint's tree is a prefix of another's (RFC 9162 §2.1.4).
import { bytesToHex, hexToBytes } from "./encoding";
import { VerifyError, type VerifyErrorCode } from "./errors";
import { resolveLogKey, type LogPublicKey } from "./log-key";
import { verifyLogCheckpoint } from "./log-signature";
import { verifyConsistency } from "./merkle";
import { MAX_PROOF_HASHES } from "./bundle-shape";

export interface ConsistencyInput {
  /** The older checkpoint (signed note text). */
  first: string;
  /** The newer checkpoint (signed note text). */
  second: string;
  /** RFC 9162 consistency proof, lowercase hex hashes. */
  proof: string[];
}

export interface TreeHead {
  treeSize: number;
  rootHash: string;
}

export type ConsistencyVerification =
  | { ok: true; origin: string; first: TreeHead; second: TreeHead }
  | { ok: false; code: VerifyErrorCode; message: string };

/** Verifies both checkpoints under the pinned log key, then the consistency proof between them. Never throws. */
export function verifyConsistencyProof(
  input: ConsistencyInput,
  opts: { logPublicKey: LogPublicKey; origin?: string },
): ConsistencyVerification {
  try {
    const log = resolveLogKey(opts.logPublicKey, opts.origin);
    if (typeof input !== "object" || input === null) throw new VerifyError("malformed_bundle", "input must be an object");
    const { first, second, proof } = input;
    if (
      !Array.isArray(proof) ||
      proof.length > MAX_PROOF_HASHES ||
      !proof.every((h) => typeof h === "string" && /^[0-9a-f]{64}$/.test(h))
    ) {
      throw new VerifyError("malformed_bundle", `proof must be an array of at most ${MAX_PROOF_HASHES} lowercase hex hashes`);
    }
    const a = verifyLogCheckpoint(first, log);
    const b = verifyLogCheckpoint(second, { ...log, origin: a.origin });
    if (a.treeSize > b.treeSize) throw new VerifyError("consistency_proof_invalid", "the first checkpoint is larger than the second");
    if (!verifyConsistency(a.treeSize, b.treeSize, proof.map(hexToBytes), a.rootHash, b.rootHash)) {
      throw new VerifyError("consistency_proof_invalid", `tree ${a.treeSize} is not proven to be a prefix of tree ${b.treeSize}`);
    }
    return {
      ok: true,
      origin: a.origin,
      first: { treeSize: a.treeSize, rootHash: bytesToHex(a.rootHash) },
      second: { treeSize: b.treeSize, rootHash: bytesToHex(b.rootHash) },
    };
  } catch (e) {
    const err = e instanceof VerifyError ? e : new VerifyError("malformed_bundle", "the input could not be processed");
    return { ok: false, code: err.code, message: err.message };
  }
}
