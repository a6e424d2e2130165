// The signing message and leaf hash of an attestation, composed from its payload's canonical
// JSON, so a request canonicalises its payload once instead of three times.
//
// Why this equals lib/verify's signingMessage / leafData (the reference): RFC 8785 sorts
// members by UTF-16 code units, and created_at < id < issuer_id < kid < payload < signature;
// it serialises strings exactly as JSON.stringify does. attestation-bytes.test.ts checks the
// equality on random attestations.
import { ATTESTATION_PAYLOAD_TYPE } from "../../lib/verify/attestation";

export interface CanonicalAttestation {
  id: string;
  issuer_id: string;
  kid: string;
  created_at: string;
  /** RFC 8785 canonical JSON of the payload. */
  payloadJcs: string;
}

const TYPE_PREFIX = `DSSEv1 ${Buffer.byteLength(ATTESTATION_PAYLOAD_TYPE)} ${ATTESTATION_PAYLOAD_TYPE} `;

/**
 * The canonical JSON of an attestation without its closing brace: its signing message and its
 * leaf data both hold it, so a caller that makes both makes it once.
 */
export function canonicalBody(a: CanonicalAttestation): string {
  const s = JSON.stringify;
  return `{"created_at":${s(a.created_at)},"id":${s(a.id)},"issuer_id":${s(a.issuer_id)},"kid":${s(a.kid)},"payload":${a.payloadJcs}`;
}

const CLOSE = 0x7d; // }

/**
 * PAE(type, JCS({id, issuer_id, kid, payload, created_at})): the bytes the issuer key signs,
 * written into one Buffer (from Node's pool when small).
 */
export function signingMessageOf(a: CanonicalAttestation, body = canonicalBody(a)): Buffer {
  const length = Buffer.byteLength(body, "utf8") + 1;
  const head = `${TYPE_PREFIX}${length} `; // ASCII
  const out = Buffer.allocUnsafe(head.length + length);
  out.write(head, 0, "latin1");
  out.write(body, head.length, "utf8");
  out[out.length - 1] = CLOSE;
  return out;
}

/** JCS({id, issuer_id, kid, payload, created_at, signature}): the leaf data, written into one Buffer. */
export function leafDataOf(a: CanonicalAttestation, signature: string, body = canonicalBody(a)): Buffer {
  const length = Buffer.byteLength(body, "utf8");
  const tail = `,"signature":${JSON.stringify(signature)}}`;
  const out = Buffer.allocUnsafe(length + Buffer.byteLength(tail, "utf8"));
  out.write(body, 0, "utf8");
  out.write(tail, length, "utf8");
  return out;
}
