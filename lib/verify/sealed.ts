// Sealed log entries: a leaf that commits to an attestation without showing it.
//
// A sealed leaf has the leaf shape of any attestation, {id, issuer_id, kid, payload, created_at,
// signature}, signed by the deployment's sealing issuer (one for every sealed entry of every
// owner), with
//
//   payload    = {"commitment": "sha256:<hex>", "type": <type>}
//   commitment = SHA-256(UTF-8(<type>) ‖ 0x00 ‖ salt ‖ leafData(attestation))
//
// where `attestation` is the owner's own signed attestation (the leaf it would have had if it
// were not sealed) and `salt` is 32 fresh random bytes. Two versions, and every verifier accepts
// both:
//
// - hallmark.sealed/v2 (what Hallmark writes): the sealed leaf's id is a random UUIDv4 of its
//   own, never the attestation's, and its created_at is the attestation's to the second
//   ("2026-11-28T10:42:05.000Z" for an attestation of 10:42:05.987): the leaf shows when, to the
//   second, and nothing that an id or an exact time elsewhere could be matched with.
// - hallmark.sealed/v1 (entries logged before v2): the sealed leaf's id and created_at are the
//   attestation's own, so whoever learns that id or millisecond can find the entry (not what it
//   holds).
//
// The opening, {salt, attestation}, goes only to the owner (and to everyone once the owner
// publishes the protection); a verifier checks the pair: the commitment, and the id and time
// rules of the version.
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

export const SEALED_V1 = "hallmark.sealed/v1";
export const SEALED_V2 = "hallmark.sealed/v2";
/** The versions of a sealed leaf's payload type, each its commitment's label. */
export type SealedType = typeof SEALED_V1 | typeof SEALED_V2;
/** The version Hallmark seals with. */
export const SEALED_PAYLOAD_TYPE: SealedType = SEALED_V2;
/** Bytes of salt in an opening: exactly this many, chosen at random for each entry. */
export const SEAL_SALT_BYTES = 32;

const SEPARATOR = new Uint8Array([0]);

/** What the owner's proof carries to open a sealed leaf. */
export interface SealOpening {
  /** RFC 4648 base64 (padded) of the 32-byte salt. */
  salt: string;
  attestation: SignedAttestationFields;
}

/** SHA-256(type ‖ 0x00 ‖ salt ‖ leafData(attestation)), 32 bytes. */
export function sealCommitment(salt: Uint8Array, attestation: SignedAttestationFields, type: SealedType = SEALED_PAYLOAD_TYPE): Uint8Array {
  if (salt.length !== SEAL_SALT_BYTES) throw new RangeError(`a seal's salt is ${SEAL_SALT_BYTES} bytes`);
  return sha256Bytes(concatBytes(utf8Encode(type), SEPARATOR, salt, leafData(attestation)));
}

/** A sealed leaf's payload. */
export interface SealedPayload {
  commitment: string;
  type: SealedType;
}

/** The payload of the sealed leaf that commits to `attestation` with `salt`. */
export function sealedPayload(
  salt: Uint8Array,
  attestation: SignedAttestationFields,
  type: SealedType = SEALED_PAYLOAD_TYPE,
): SealedPayload {
  return { commitment: `sha256:${bytesToHex(sealCommitment(salt, attestation, type))}`, type };
}

/** True when a leaf's payload is a sealed entry's (only its two members, a sealed type of either version). */
export function isSealedPayload(payload: unknown): payload is SealedPayload {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const p = payload as Record<string, unknown>;
  return (p.type === SEALED_V1 || p.type === SEALED_V2) && typeof p.commitment === "string" && Object.keys(p).length === 2;
}

/**
 * What the verified entry is: an attestation logged in the open; a sealed entry with its
 * opening (the attestation inside checked too); or a sealed leaf alone, whose content is its
 * owner's (only its own signature and inclusion can be checked).
 */
export type EntryKind = "open" | "opened" | "sealed";

/** The kind of an entry: opened when an opening comes with it, sealed when its leaf's payload is a sealed one. */
export const entryKindOf = (hasOpening: boolean, leafPayload: unknown): EntryKind =>
  hasOpening ? "opened" : isSealedPayload(leafPayload) ? "sealed" : "open";

const COMMITMENT = /^sha256:[0-9a-f]{64}$/;
/** A time as Hallmark writes it: ISO 8601 UTC with milliseconds. */
const MILLISECOND_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z$/;
/** A random (version 4) UUID, lowercase. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A v2 sealed leaf's created_at for an attestation created at `createdAt` (ISO 8601 UTC with
 * milliseconds): the same second, its milliseconds zero. Null for a time not in that form.
 */
export function sealedCreatedAt(createdAt: string): string | null {
  const m = MILLISECOND_TIME.exec(createdAt);
  return m ? `${m[1]}.000Z` : null;
}

/** True for a lowercase version 4 UUID, as a v2 sealed leaf's id is. */
export const isUuidV4 = (id: string): boolean => UUID_V4.test(id);

/**
 * Checks that `opening` opens `sealed`: a well-formed sealed payload whose commitment is the
 * opening's, and the version's rules for the leaf's id and created_at (v1: the attestation's
 * own; v2: a random UUIDv4 other than the attestation's, and the attestation's second). Throws
 * VerifyError ("seal_opening_invalid") naming what differs; checks no signature (the caller does).
 */
export function checkSealOpening(sealed: SignedAttestationFields, opening: SealOpening): void {
  const fail = (m: string) => new VerifyError("seal_opening_invalid", m);
  if (!isSealedPayload(sealed.payload) || !COMMITMENT.test(sealed.payload.commitment)) {
    throw fail(`the sealed leaf's payload is not {"commitment": "sha256:<hex>", "type": "${SEALED_V2}" or "${SEALED_V1}"}`);
  }
  const type = sealed.payload.type;
  let salt: Uint8Array;
  try {
    salt = base64ToBytes(opening.salt);
  } catch {
    throw fail("the opening's salt is not base64");
  }
  if (salt.length !== SEAL_SALT_BYTES) throw fail(`the opening's salt is ${salt.length} bytes, not ${SEAL_SALT_BYTES}`);
  const a = opening.attestation;
  if (type === SEALED_V1) {
    if (a.id !== sealed.id) throw fail("the opened attestation's id differs from the sealed leaf's");
    if (a.created_at !== sealed.created_at) throw fail("the opened attestation's created_at differs from the sealed leaf's");
  } else {
    if (!isUuidV4(sealed.id)) throw fail(`a ${SEALED_V2} leaf's id is a random UUID (version 4)`);
    if (a.id === sealed.id) throw fail(`a ${SEALED_V2} leaf's id is its own, not the opened attestation's`);
    const second = sealedCreatedAt(a.created_at);
    if (second === null) throw fail("the opened attestation's created_at is not an ISO 8601 UTC time with milliseconds");
    if (sealed.created_at !== second) throw fail(`the sealed leaf's created_at is not the opened attestation's to the second (${second})`);
  }
  if (sealedPayload(salt, a, type).commitment !== sealed.payload.commitment) {
    throw fail("the commitment does not match: the salt or the opened attestation is not what was sealed");
  }
}

/** A fresh opening's salt, as its base64 and bytes (Web Crypto: Node and browsers alike). */
export function newSealSalt(): { bytes: Uint8Array; base64: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(SEAL_SALT_BYTES));
  return { bytes, base64: bytesToBase64(bytes) };
}
