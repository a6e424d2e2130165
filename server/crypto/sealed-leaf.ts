// A sealed entry's bytes on the server's hot paths (mint, tiles), with node:crypto. The format
// and its reference implementation are lib/verify/sealed.ts; sealed-leaf.test.ts checks that
// both give the same commitment and leaf on random attestations.
import crypto from "node:crypto";
import { SEAL_SALT_BYTES, SEALED_PAYLOAD_TYPE } from "../../lib/verify/sealed";
import { type CanonicalAttestation, leafDataOf } from "./attestation-bytes";

/** What the attestations.seal column holds (JSON): the sealed leaf's own fields and the salt. */
export interface SealColumn {
  issuer_id: string;
  kid: string;
  /** base64 (padded) of the 32-byte salt. */
  salt: string;
  /** base64 (padded) of the sealing key's Ed25519 signature over the sealed leaf. */
  signature: string;
}

const LABEL = Buffer.from(`${SEALED_PAYLOAD_TYPE}\u0000`, "utf8");

/** A fresh salt: 32 bytes from the operating system's CSPRNG. */
export const newSalt = (): Buffer => crypto.randomBytes(SEAL_SALT_BYTES);

/**
 * The sealed leaf's canonical attestation (its signing fields) for an attestation whose leaf
 * data is `innerLeaf`: the attestation's id and created_at, the sealing issuer and key, and the
 * payload {"commitment": "sha256:<hex>", "type": "hallmark.sealed/v1"} in RFC 8785 order.
 */
export function sealedFields(
  inner: { id: string; created_at: string },
  innerLeaf: Uint8Array,
  sealer: { issuer_id: string; kid: string },
  salt: Uint8Array,
): CanonicalAttestation {
  const commitment = crypto.createHash("sha256").update(LABEL).update(salt).update(innerLeaf).digest("hex");
  return {
    id: inner.id,
    issuer_id: sealer.issuer_id,
    kid: sealer.kid,
    created_at: inner.created_at,
    payloadJcs: `{"commitment":"sha256:${commitment}","type":${JSON.stringify(SEALED_PAYLOAD_TYPE)}}`,
  };
}

/** The leaf data the log holds for a stored row: its own, or, with a seal, the sealed leaf's. */
export function loggedLeafDataOf(inner: CanonicalAttestation, signature: string, seal: string | null): Buffer {
  const innerLeaf = leafDataOf(inner, signature);
  if (seal === null) return innerLeaf;
  const s = JSON.parse(seal) as SealColumn;
  return leafDataOf(sealedFields(inner, innerLeaf, s, Buffer.from(s.salt, "base64")), s.signature);
}
