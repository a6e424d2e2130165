// Stable, snake_case failure codes of the offline verifier. A UI, CLI or API may switch on
// these; never rename one (add new ones instead).

export const VERIFY_ERROR_CODES = [
  /** The bundle is not of the expected shape (missing/mistyped/oversized field). */
  "malformed_bundle",
  /** The bundle exceeds the size cap. */
  "bundle_too_large",
  /** The pinned log public key (option) is not a valid Ed25519 key. */
  "invalid_log_key",
  /** The checkpoint text is not a well-formed C2SP signed note / tlog-checkpoint. */
  "malformed_checkpoint",
  /** No signature line by the pinned log key verifies over the checkpoint body. */
  "checkpoint_signature_invalid",
  /** The checkpoint origin differs from the pinned origin, or from signed_tree_head.origin. */
  "origin_mismatch",
  /** signed_tree_head / inclusion_proof size, root or signature disagree with the verified checkpoint. */
  "tree_head_mismatch",
  /** The inclusion proof does not lead from the attestation's leaf to the checkpoint root. */
  "inclusion_proof_invalid",
  /** A consistency proof does not show the first checkpoint's tree is a prefix of the second's. */
  "consistency_proof_invalid",
  /** The key's public_key PEM is not a valid Ed25519 SubjectPublicKeyInfo. */
  "malformed_public_key",
  /** key.kid is not the JWK thumbprint of key.public_key, or differs from attestation.kid. */
  "key_id_mismatch",
  /** attestation.issuer_id, key.issuer_id and issuer.id are not all equal. */
  "issuer_mismatch",
  /** key.algorithm is not "Ed25519". */
  "unsupported_algorithm",
  /** The attestation signature is malformed or does not verify under the key. */
  "attestation_signature_invalid",
  /** A timestamp (created_at, not_before, expires_at) is not a valid ISO 8601 date-time. */
  "invalid_timestamp",
  /** attestation.created_at is before key.not_before. */
  "key_not_yet_valid",
  /** attestation.created_at is after key.expires_at. */
  "key_expired",
  /** A cosignature by a witness the policy names does not verify. */
  "cosignature_invalid",
  /** The checkpoint's valid cosignatures do not satisfy the policy's quorum. */
  "quorum_not_met",
  /** The policy names no log key for the checkpoint's origin. */
  "unknown_log",
  /** A tlog-proof file is not well formed. */
  "malformed_tlog_proof",
  /** An RFC 3161 time-stamp token (or a certificate pinned to check it) is not well formed. */
  "malformed_timestamp",
  /** An RFC 3161 token is not over these bytes, its signature fails, or its signer is not a pinned TSA. */
  "timestamp_invalid",
  /** A sealed entry's opening (salt, attestation) does not produce the sealed leaf's commitment, id or time. */
  "seal_opening_invalid",
  /** A sealed leaf's signature, by the sealing issuer's key, is malformed or does not verify. */
  "seal_signature_invalid",
  /** A log's successor statement (its last entry, after a key rotation) is malformed, or its note is not signed by both logs' keys. */
  "successor_invalid",
  /** A chain of logs does not lead from the pinned log to the one a proof names (a successor proof is not the log's last entry, or is missing). */
  "chain_invalid",
  /** A time-stamp was required (a TSA was pinned for it) and the bundle carries none. */
  "timestamp_missing",
  /** A certificate has no proof bundle attached, or it is not a readable PDF. */
  "malformed_certificate",
  /** A certificate's attachments prove another entry than each other, or than its page states. */
  "certificate_mismatch",
  /** A bundle is valid but not about the protection, hash and attestation a page shows. */
  "page_mismatch",
] as const;

export type VerifyErrorCode = (typeof VERIFY_ERROR_CODES)[number];

/** A verification failure with a stable code; `message` is for humans and may change. */
export class VerifyError extends Error {
  readonly code: VerifyErrorCode;
  constructor(code: VerifyErrorCode, message: string) {
    super(message);
    this.name = "VerifyError";
    this.code = code;
  }
}

export function isVerifyError(e: unknown): e is VerifyError {
  return e instanceof VerifyError;
}
