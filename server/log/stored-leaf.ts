// The leaf of a stored attestation row: RFC 6962's leaf hash over its leaf data (RFC 8785
// canonical JSON of the signed fields, as lib/verify recomputes it from a proof bundle). A row
// logged sealed has the sealed leaf instead (lib/verify/sealed.ts), rebuilt here with the
// reference implementation from the row and its seal column.
import { leafData, type SignedAttestationFields } from "@/lib/verify/attestation";
import { base64ToBytes } from "@/lib/verify/encoding";
import { leafHash } from "@/lib/verify/merkle";
import { SEALED_V1, SEALED_V2, type SealedPayload, sealedCreatedAt, sealedPayload } from "@/lib/verify/sealed";
import type { SealColumn } from "../crypto/sealed-leaf";
import { parseJson } from "@/lib/verify/json-parse";

export interface StoredAttestationFields {
  id: string;
  issuerId: string;
  kid: string;
  /** Canonical JSON of the signed payload, as stored. */
  payload: string;
  signature: string;
  createdAt: Date;
  /** The attestations.seal column: null when the log holds the row's own leaf. */
  seal?: string | null;
}

/** The row's own attestation, as signed by its issuer. */
export const storedAttestation = (a: StoredAttestationFields): SignedAttestationFields => ({
  id: a.id,
  issuer_id: a.issuerId,
  kid: a.kid,
  payload: parseJson(a.payload),
  created_at: a.createdAt.toISOString(),
  signature: a.signature,
});

/**
 * The sealed leaf the log holds for a row logged sealed (its seal column parsed): with an id of
 * its own in the column, hallmark.sealed/v2 (that id, the row's second); else v1 (the row's).
 */
export function storedSealedLeaf(a: StoredAttestationFields & { seal: string }): SignedAttestationFields & { payload: SealedPayload } {
  const s = JSON.parse(a.seal) as SealColumn;
  const createdAt = a.createdAt.toISOString();
  const v2 = s.id !== undefined;
  return {
    id: s.id ?? a.id,
    issuer_id: s.issuer_id,
    kid: s.kid,
    payload: sealedPayload(base64ToBytes(s.salt), storedAttestation(a), v2 ? SEALED_V2 : SEALED_V1),
    created_at: v2 ? sealedCreatedAt(createdAt)! : createdAt,
    signature: s.signature,
  };
}

/** The leaf data the log holds for the row. */
export const storedLeafData = (a: StoredAttestationFields): Uint8Array =>
  leafData(a.seal ? storedSealedLeaf({ ...a, seal: a.seal }) : storedAttestation(a));

export const storedLeafHash = (a: StoredAttestationFields): Uint8Array => leafHash(storedLeafData(a));
