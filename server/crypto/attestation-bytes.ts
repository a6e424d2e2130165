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

function bodyWithoutClose(a: CanonicalAttestation): string {
  const s = JSON.stringify;
  return `{"created_at":${s(a.created_at)},"id":${s(a.id)},"issuer_id":${s(a.issuer_id)},"kid":${s(a.kid)},"payload":${a.payloadJcs}`;
}

/** PAE(type, JCS({id, issuer_id, kid, payload, created_at})): the bytes the issuer key signs. */
export function signingMessageOf(a: CanonicalAttestation): Buffer {
  const body = Buffer.from(bodyWithoutClose(a) + "}", "utf8");
  return Buffer.concat([Buffer.from(`${TYPE_PREFIX}${body.length} `, "utf8"), body]);
}

/** JCS({id, issuer_id, kid, payload, created_at, signature}): the leaf data. */
export function leafDataOf(a: CanonicalAttestation, signature: string): Buffer {
  return Buffer.from(`${bodyWithoutClose(a)},"signature":${JSON.stringify(signature)}}`, "utf8");
}
