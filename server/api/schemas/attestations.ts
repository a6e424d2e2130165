import { z } from "zod";
import { ISSUER_STATUSES, KEY_ALGORITHMS, TRUST_LEVELS } from "../../domain/attestations";
import { ZCount, ZDateTime, ZHex32, ZJsonObject, ZUuid } from "./common";

/** Answers about attestations, their issuers and keys, and their proofs. */

export const ZAttestation = z
  .object({
    id: ZUuid,
    issuer_id: ZUuid,
    kid: z.string().meta({ description: "The signing key's id: base64url of the SHA-256 of its SubjectPublicKeyInfo." }),
    status: z.literal("VALID"),
    payload: ZJsonObject().meta({ description: "The JSON object signed (as its RFC 8785 canonical form)." }),
    signature: z.string().meta({ description: "Ed25519 signature, base64 (padded), over the DSSE PAE of the canonical attestation." }),
    log_index: ZCount,
    created_at: ZDateTime,
    sealed: z.literal(true).optional().meta({
      description:
        "Present when the log holds this attestation sealed: its leaf at log_index is a commitment signed by the sealing issuer, which the proof bundle's `seal` opens.",
    }),
  })
  .meta({ id: "Attestation" });

export const ZAttestationBatch = z
  .object({ attestations: z.array(ZAttestation).meta({ description: "One per item, in the items' order; log indexes are contiguous." }) })
  .meta({ id: "AttestationBatch" });

export const ZSigningKey = z
  .object({
    kid: z.string(),
    issuer_id: ZUuid,
    algorithm: z.enum(KEY_ALGORITHMS),
    public_key: z.string().meta({ description: "SubjectPublicKeyInfo PEM." }),
    status: z.enum(["ACTIVE", "RETIRED"]),
    not_before: ZDateTime,
    expires_at: ZDateTime,
  })
  .meta({ id: "SigningKey" });

export const ZIssuer = z
  .object({
    id: ZUuid,
    tenant_id: ZUuid,
    name: z.string(),
    domain: z.string(),
    status: z.enum(ISSUER_STATUSES),
    trust_level: z.enum(TRUST_LEVELS),
    created_at: ZDateTime,
    updated_at: ZDateTime,
  })
  .meta({ id: "Issuer" });

export const ZIssuerWithKeys = ZIssuer.extend({ keys: z.array(ZSigningKey) }).meta({ id: "IssuerWithKeys" });

export const ZInclusionProof = z
  .object({ log_index: ZCount, tree_size: ZCount, root_hash: ZHex32, hashes: z.array(ZHex32) })
  .meta({ id: "InclusionProof", description: "RFC 9162 inclusion proof of the leaf at log_index in the tree of tree_size." });

export const ZSignedTreeHead = z
  .object({
    tree_size: ZCount,
    root_hash: ZHex32,
    signature: z.string(),
    origin: z.string(),
    timestamp: ZDateTime,
    checkpoint: z.string().meta({ description: "The C2SP tlog-checkpoint signed note, with the witnesses' cosignatures." }),
  })
  .meta({ id: "SignedTreeHead" });

export const ZProofBundle = z
  .object({
    attestation: ZAttestation,
    issuer: ZIssuer,
    key: ZSigningKey,
    inclusion_proof: ZInclusionProof,
    signed_tree_head: ZSignedTreeHead,
    seal: z
      .object({
        leaf: z
          .object({
            id: ZUuid.meta({
              description:
                "hallmark.sealed/v2: a random UUID (version 4) of the sealed leaf's own, never the attestation's. hallmark.sealed/v1 (entries sealed before v2): the attestation's id.",
            }),
            issuer_id: ZUuid,
            kid: z.string(),
            payload: z.object({ commitment: z.string(), type: z.enum(["hallmark.sealed/v2", "hallmark.sealed/v1"]) }),
            created_at: ZDateTime.meta({
              description:
                "hallmark.sealed/v2: the attestation's created_at to the second (its milliseconds .000). hallmark.sealed/v1: the attestation's created_at.",
            }),
            signature: z.string(),
          })
          .meta({ description: "The sealed leaf the log holds at log_index (its leaf data is the JCS of these six members)." }),
        salt: z.string().meta({
          description:
            "base64 of the 32-byte salt: SHA-256(<seal.leaf.payload.type> ‖ 0x00 ‖ salt ‖ leaf data of `attestation`) is the commitment.",
        }),
        issuer: ZIssuer,
        key: ZSigningKey,
      })
      .optional()
      .meta({
        description:
          "Present when the log holds the attestation sealed: the opening, and the sealing issuer and key that signed the sealed leaf. The inclusion proof is of `seal.leaf`.",
      }),
    timestamp: z
      .object({
        checkpoint: z
          .string()
          .meta({ description: "A checkpoint (signed note, as the log signed it) whose UTF-8 bytes the token is over." }),
        token: z.string().meta({ description: "RFC 3161 TimeStampToken, DER, base64." }),
        inclusion_proof: z.object({ tree_size: ZCount, root_hash: ZHex32, hashes: z.array(ZHex32) }),
      })
      .optional()
      .meta({
        description:
          "With HALLMARK_TSA_URL: the earliest time-stamped checkpoint holding the entry, its TSA token and the entry's inclusion proof in it. The entry existed no later than the token's time, on the TSA's word (npm run verify -- … --tsa-cert).",
      }),
  })
  .meta({ id: "ProofBundle", description: "Everything needed to verify an attestation offline (npm run verify, or lib/verify)." });
