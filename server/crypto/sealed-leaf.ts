// A sealed entry's bytes on the server's hot paths (mint, tiles), with node:crypto. The format
// and its reference implementation are lib/verify/sealed.ts; sealed-leaf.test.ts checks that
// both give the same commitment and leaf on random attestations, of both versions.
import crypto from "node:crypto";
import { SEAL_SALT_BYTES, SEALED_V1, SEALED_V2, type SealedPayload, type SealedType, sealedCreatedAt } from "../../lib/verify/sealed";
import { type CanonicalAttestation, leafDataOf } from "./attestation-bytes.mjs";
import { parseJson } from "@/lib/verify/json-parse";

/** What the attestations.seal column holds (JSON): the sealed leaf's own fields and the salt. */
export interface SealColumn {
  /**
   * hallmark.sealed/v2: the sealed leaf's own id, a random UUIDv4 (its created_at is the row's to
   * the second). Absent for a hallmark.sealed/v1 leaf, whose id and created_at are the row's.
   */
  id?: string;
  issuer_id: string;
  kid: string;
  /** base64 (padded) of the 32-byte salt. */
  salt: string;
  /** base64 (padded) of the sealing key's Ed25519 signature over the sealed leaf. */
  signature: string;
}

/** The sealed leaf's own fields, as the seal column holds them (its signature aside). */
export type SealFields = Pick<SealColumn, "id" | "issuer_id" | "kid">;

const LABELS: Record<SealedType, Buffer> = {
  [SEALED_V1]: Buffer.from(`${SEALED_V1}\u0000`, "utf8"),
  [SEALED_V2]: Buffer.from(`${SEALED_V2}\u0000`, "utf8"),
};

/** A fresh salt: 32 bytes from the operating system's CSPRNG. */
export const newSalt = (): Buffer => crypto.randomBytes(SEAL_SALT_BYTES);

/** A fresh sealed leaf's id: a random UUID (version 4), nothing of the attestation's. */
export const newSealedLeafId = (): string => crypto.randomUUID();

/** The second of an attestation's created_at (ISO 8601 UTC with milliseconds, as Hallmark writes it). */
function secondOf(createdAt: string): string {
  const second = sealedCreatedAt(createdAt);
  if (second === null) throw new Error(`created_at ${createdAt} is not an ISO 8601 UTC time with milliseconds`);
  return second;
}

/**
 * The sealed leaf's canonical attestation (its signing fields) for an attestation whose leaf
 * data is `innerLeaf`, with the payload {"commitment": "sha256:<hex>", "type": <type>} in
 * RFC 8785 order. With `seal.id` it is hallmark.sealed/v2 (that id, the attestation's second);
 * without, hallmark.sealed/v1 (the attestation's id and created_at).
 */
export function sealedFields(
  inner: { id: string; created_at: string },
  innerLeaf: Uint8Array,
  seal: SealFields,
  salt: Uint8Array,
): CanonicalAttestation {
  const type = seal.id === undefined ? SEALED_V1 : SEALED_V2;
  const commitment = crypto.createHash("sha256").update(LABELS[type]).update(salt).update(innerLeaf).digest("hex");
  return {
    id: seal.id ?? inner.id,
    issuer_id: seal.issuer_id,
    kid: seal.kid,
    created_at: seal.id === undefined ? inner.created_at : secondOf(inner.created_at),
    payloadJcs: `{"commitment":"sha256:${commitment}","type":${JSON.stringify(type)}}`,
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
    payload: parseJson(f.payloadJcs) as SealedPayload,
    created_at: f.created_at,
    signature: s.signature,
  };
  return { leaf, salt: s.salt };
}
