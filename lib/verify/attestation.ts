// Attestation signing message (DSSE PAE over JCS) and transparency-log leaf data.
// These byte layouts are contracts (ARCHITECTURE.md, "Formats"): the server signs and logs
// exactly these bytes, and an independent verifier rebuilds them from the bundle.
import { base64ToBytes, concatBytes, utf8Encode } from "./encoding";
import { verifyEd25519 } from "./ed25519";
import { canonicalJson } from "./jcs";

export const ATTESTATION_PAYLOAD_TYPE = "application/vnd.hallmark.attestation.v1+json";

/** The five signed fields of an attestation. */
export interface AttestationSigningFields {
  id: string;
  issuer_id: string;
  kid: string;
  payload: unknown;
  created_at: string;
}

/** The signed fields plus the signature: exactly what goes into the log leaf. */
export interface SignedAttestationFields extends AttestationSigningFields {
  /** RFC 4648 base64 (padded) of the 64-byte Ed25519 signature over signingMessage(). */
  signature: string;
}

/**
 * DSSE v1 pre-authentication encoding:
 * "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths as ASCII decimal byte counts.
 */
export function pae(type: string, body: Uint8Array): Uint8Array {
  const typeBytes = utf8Encode(type);
  const header = utf8Encode(`DSSEv1 ${typeBytes.length} ${type} ${body.length} `);
  return concatBytes(header, body);
}

/** UTF-8 of JCS({id, issuer_id, kid, payload, created_at}); other fields are ignored. */
export function signingBody(att: AttestationSigningFields): Uint8Array {
  const { id, issuer_id, kid, payload, created_at } = att;
  return utf8Encode(canonicalJson({ id, issuer_id, kid, payload, created_at }));
}

/** The exact bytes the issuer key signs: PAE(ATTESTATION_PAYLOAD_TYPE, signingBody(att)). */
export function signingMessage(att: AttestationSigningFields): Uint8Array {
  return pae(ATTESTATION_PAYLOAD_TYPE, signingBody(att));
}

/** Log leaf data: UTF-8 of JCS({id, issuer_id, kid, payload, created_at, signature}). */
export function leafData(att: SignedAttestationFields): Uint8Array {
  const { id, issuer_id, kid, payload, created_at, signature } = att;
  return utf8Encode(canonicalJson({ id, issuer_id, kid, payload, created_at, signature }));
}

/**
 * True iff `att.signature` is the strict padded base64 of a 64-byte Ed25519 signature by
 * `publicKey` (raw 32 bytes) over signingMessage(att). Never throws on bad input.
 */
export function verifyAttestationSignature(att: SignedAttestationFields, publicKey: Uint8Array): boolean {
  let sig: Uint8Array;
  let message: Uint8Array;
  try {
    sig = base64ToBytes(att.signature);
    message = signingMessage(att);
  } catch {
    return false;
  }
  return verifyEd25519(sig, message, publicKey);
}
