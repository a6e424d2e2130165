// A checkpoint's log signature under either kind of log key C2SP allows: an Ed25519 note
// signature (signed-note type 0x01), or an ML-DSA-44 signature in the tlog-cosignature format
// (type 0x06, its key name the log's origin), which tlog-checkpoint recommends for new logs.
// A verifier picks its line by key name and key ID, so one that knows only one of the log's
// keys finds its own and ignores the other (signed-note: unknown signatures are ignored).
import { parseCheckpointBody, parseSignedNote, verifyCheckpoint, type VerifiedCheckpoint } from "./checkpoint";
import { COSIGNATURE_ML_DSA_44, isCosignatureBy, parseCosignerKey, verifyCosignature, type CosignerKey } from "./cosignature";
import { VerifyError } from "./errors";

/** A pinned log key: Ed25519 (raw 32 bytes), or ML-DSA-44 (`mlDsa44`, its key name the origin). */
export interface LogKey {
  publicKey: Uint8Array;
  origin?: string;
  mlDsa44?: CosignerKey;
}

/** An ML-DSA-44 log verifier key (`<origin>+<key ID>+base64(0x06 ‖ key)`), or null when the vkey is of another type. */
export function parseMlDsaLogKey(vkey: string): CosignerKey | null {
  let key: CosignerKey;
  try {
    key = parseCosignerKey(vkey);
  } catch {
    return null;
  }
  return key.type === COSIGNATURE_ML_DSA_44 ? key : null;
}

/**
 * Verifies a checkpoint against a pinned log key of either kind (and origin, if pinned). Throws
 * VerifyError as verifyCheckpoint does.
 */
export function verifyLogCheckpoint(text: string, key: LogKey): VerifiedCheckpoint {
  if (!key.mlDsa44) return verifyCheckpoint(text, { publicKey: key.publicKey, origin: key.origin });
  const note = parseSignedNote(text);
  const checkpoint = parseCheckpointBody(note.body);
  if (key.origin !== undefined && checkpoint.origin !== key.origin) {
    throw new VerifyError("origin_mismatch", `checkpoint origin "${checkpoint.origin}" is not the pinned origin`);
  }
  if (checkpoint.origin !== key.mlDsa44.name)
    throw new VerifyError("origin_mismatch", "the ML-DSA-44 log key's name is not the checkpoint's origin");
  let verified: string | undefined;
  for (const sig of note.signatures) {
    if (!isCosignatureBy(sig, key.mlDsa44)) continue;
    if (verifyCosignature(note.body, sig, key.mlDsa44) === null)
      throw new VerifyError("checkpoint_signature_invalid", "an ML-DSA-44 signature by the log key does not verify");
    verified ??= sig.base64;
  }
  if (!verified) throw new VerifyError("checkpoint_signature_invalid", "no ML-DSA-44 signature by the log key");
  return { ...checkpoint, body: note.body, signature: verified };
}
