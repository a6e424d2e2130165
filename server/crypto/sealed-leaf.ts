// A sealed entry's bytes on the server's hot paths (mint, tiles), with node:crypto. The format
// and its reference implementation are lib/verify/sealed.ts; sealed-leaf.test.ts checks that
// both give the same commitment and leaf on random attestations.
import crypto from "node:crypto";
import { SEAL_SALT_BYTES, SEALED_PAYLOAD_TYPE, type SealedPayload } from "../../lib/verify/sealed";
import { type CanonicalAttestation, leafDataOf } from "./attestation-bytes.mjs";

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

/** The sealed leaf's signing fields for a stored row and its parsed seal column. */
function storedSealedFields(inner: CanonicalAttestation, signature: string, s: SealColumn): CanonicalAttestation {
  return sealedFields(inner, leafDataOf(inner, signature), s, Buffer.from(s.salt, "base64"));
}

/** The leaf data the log holds for a stored row: its own, or, with a seal, the sealed leaf's. */
export function loggedLeafDataOf(inner: CanonicalAttestation, signature: string, seal: string | null): Buffer {
  if (seal === null) return leafDataOf(inner, signature);
  const s = JSON.parse(seal) as SealColumn;
  return leafDataOf(storedSealedFields(inner, signature, s), s.signature);
}

/** A stored row's sealed leaf, as a bundle's `seal.leaf` shows it, and the salt that opens it. */
export function storedSeal(inner: CanonicalAttestation, signature: string, seal: string) {
  const s = JSON.parse(seal) as SealColumn;
  const f = storedSealedFields(inner, signature, s);
  const leaf = {
    id: f.id,
    issuer_id: f.issuer_id,
    kid: f.kid,
    payload: JSON.parse(f.payloadJcs) as SealedPayload,
    created_at: f.created_at,
    signature: s.signature,
  };
  return { leaf, salt: s.salt };
}
