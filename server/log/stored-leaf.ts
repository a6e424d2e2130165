// The leaf of a stored attestation row: RFC 6962's leaf hash over its leaf data (RFC 8785
// canonical JSON of the signed fields, as lib/verify recomputes it from a proof bundle).
import { leafData } from "@/lib/verify/attestation";
import { leafHash } from "@/lib/verify/merkle";

export interface StoredAttestationFields {
  id: string;
  issuerId: string;
  kid: string;
  /** Canonical JSON of the signed payload, as stored. */
  payload: string;
  signature: string;
  createdAt: Date;
}

export const storedLeafData = (a: StoredAttestationFields): Uint8Array =>
  leafData({
    id: a.id,
    issuer_id: a.issuerId,
    kid: a.kid,
    payload: JSON.parse(a.payload),
    created_at: a.createdAt.toISOString(),
    signature: a.signature,
  });

export const storedLeafHash = (a: StoredAttestationFields): Uint8Array => leafHash(storedLeafData(a));
