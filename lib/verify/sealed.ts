// Sealed log entries: a leaf that commits to an attestation without showing it.
//
// A sealed leaf has today's leaf shape, {id, issuer_id, kid, payload, created_at, signature},
// signed by the deployment's sealing issuer (one for every sealed entry of every owner), with
//
//   payload    = {"commitment": "sha256:<hex>", "type": "hallmark.sealed/v1"}
//   commitment = SHA-256(UTF-8("hallmark.sealed/v1") ‖ 0x00 ‖ salt ‖ leafData(attestation))
//
// where `attestation` is the owner's own signed attestation (the leaf it would have had if it
// were not sealed) and `salt` is 32 fresh random bytes. The sealed leaf's id and created_at
// are the attestation's. The opening, {salt, attestation}, goes only to the owner (and to
// everyone once the owner publishes the protection).
//
// Why it hides and binds: the label separates these hashes from RFC 9162's leaf (0x00) and
// node (0x01) hashes and from any other use; the salt is fixed-length, so the concatenation
// is unambiguous, and its 256 random bits make the commitment reveal nothing about the
// attestation (a guess of the file cannot be confirmed); SHA-256's collision resistance binds
// it to one attestation. Key Transparency commits to its values the same way (a random opening
// beside the value under a fixed-key hash: draft-ietf-keytrans-protocol, "Commitment").
import { leafData, type SignedAttestationFields } from "./attestation";
import { base64ToBytes, bytesToBase64, bytesToHex, concatBytes, utf8Encode } from "./encoding";
import { VerifyError } from "./errors";
import { sha256Bytes } from "./merkle";

export const SEALED_PAYLOAD_TYPE = "hallmark.sealed/v1";
/** Bytes of salt in an opening: exactly this many, chosen at random for each entry. */
export const SEAL_SALT_BYTES = 32;

const LABEL = utf8Encode(SEALED_PAYLOAD_TYPE);
const SEPARATOR = new Uint8Array([0]);

/** What the owner's proof carries to open a sealed leaf. */
export interface SealOpening {
  /** RFC 4648 base64 (padded) of the 32-byte salt. */
  salt: string;
  attestation: SignedAttestationFields;
}

/** SHA-256(label ‖ 0x00 ‖ salt ‖ leafData(attestation)), 32 bytes. */
export function sealCommitment(salt: Uint8Array, attestation: SignedAttestationFields): Uint8Array {
  if (salt.length !== SEAL_SALT_BYTES) throw new RangeError(`a seal's salt is ${SEAL_SALT_BYTES} bytes`);
  return sha256Bytes(concatBytes(LABEL, SEPARATOR, salt, leafData(attestation)));
}

/** A sealed leaf's payload. */
export interface SealedPayload {
  commitment: string;
  type: typeof SEALED_PAYLOAD_TYPE;
}

/** The payload of the sealed leaf that commits to `attestation` with `salt`. */
export function sealedPayload(salt: Uint8Array, attestation: SignedAttestationFields): SealedPayload {
  return { commitment: `sha256:${bytesToHex(sealCommitment(salt, attestation))}`, type: SEALED_PAYLOAD_TYPE };
}

/** True when a leaf's payload is a sealed entry's (only its two members, the sealed type). */
export function isSealedPayload(payload: unknown): payload is SealedPayload {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const p = payload as Record<string, unknown>;
  return p.type === SEALED_PAYLOAD_TYPE && typeof p.commitment === "string" && Object.keys(p).length === 2;
}

const COMMITMENT = /^sha256:[0-9a-f]{64}$/;

/**
 * Checks that `opening` opens `sealed`: a well-formed sealed payload whose commitment is the
 * opening's, with the attestation's id and created_at. Throws VerifyError
 * ("seal_opening_invalid") naming what differs; checks no signature (the caller does).
 */
export function checkSealOpening(sealed: SignedAttestationFields, opening: SealOpening): void {
  const fail = (m: string) => new VerifyError("seal_opening_invalid", m);
  if (!isSealedPayload(sealed.payload) || !COMMITMENT.test(sealed.payload.commitment)) {
    throw fail(`the sealed leaf's payload is not {"commitment": "sha256:<hex>", "type": "${SEALED_PAYLOAD_TYPE}"}`);
  }
  let salt: Uint8Array;
  try {
    salt = base64ToBytes(opening.salt);
  } catch {
    throw fail("the opening's salt is not base64");
  }
  if (salt.length !== SEAL_SALT_BYTES) throw fail(`the opening's salt is ${salt.length} bytes, not ${SEAL_SALT_BYTES}`);
  const a = opening.attestation;
  if (a.id !== sealed.id) throw fail("the opened attestation's id differs from the sealed leaf's");
  if (a.created_at !== sealed.created_at) throw fail("the opened attestation's created_at differs from the sealed leaf's");
  if (sealedPayload(salt, a).commitment !== sealed.payload.commitment) {
    throw fail("the commitment does not match: the salt or the opened attestation is not what was sealed");
  }
}

/** A fresh opening's salt, as its base64 and bytes (Web Crypto: Node and browsers alike). */
export function newSealSalt(): { bytes: Uint8Array; base64: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(SEAL_SALT_BYTES));
  return { bytes, base64: bytesToBase64(bytes) };
}
