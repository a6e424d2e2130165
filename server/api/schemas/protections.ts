import { z } from "zod";
import { CATEGORIES, FINGERPRINT_ALGS, VISIBILITIES } from "../../domain/protections";
import { ZAttestation, ZProofBundle } from "./attestations";
import { ZCount, ZDateTime, ZHex32, ZJsonObject, ZUuid } from "./common";

/** Answers about consumers' protections, private and public. */

export const ZProtectionRecord = z
  .object({
    protection_id: ZUuid,
    attestation_id: ZUuid,
    verify_url: z.url(),
    share_url: z.url(),
    status: z.literal("protected"),
    content_hash: ZHex32,
    protected_at: ZDateTime,
  })
  .meta({ id: "ProtectionRecord", description: "A minted protection." });

const ZFingerprints = z
  .array(z.object({ alg: z.enum(FINGERPRINT_ALGS), hash: ZHex32, quality: ZCount }))
  .meta({ description: "The perceptual fingerprints minted with it (PDQ for a picture), signed in its attestation." });

export const ZProtectionItem = ZAttestation.extend({
  protection_id: ZUuid,
  content_hash: ZHex32,
  title: z.string().nullable(),
  description: z.string().nullable(),
  file_name: z.string().nullable(),
  content_type: z.string().nullable(),
  file_size: ZCount.nullable(),
  category: z.enum(CATEGORIES),
  visibility: z.enum(VISIBILITIES),
  ai_metadata: ZJsonObject().nullable(),
  verification_count: ZCount,
  verify_url: z.url(),
  share_url: z.url(),
  protected_at: ZDateTime,
  fingerprints: ZFingerprints,
}).meta({ id: "ProtectionItem", description: "An attestation with its protection's fields." });

export const ZProtectionsPage = z
  .object({
    items: z.array(ZProtectionItem),
    total: ZCount,
    next_cursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last." }),
  })
  .meta({ id: "ProtectionsPage" });

export const ZPublicProtection = z
  .object({
    protection_id: ZUuid,
    attestation_id: ZUuid,
    content_hash: ZHex32,
    category: z.enum(CATEGORIES),
    visibility: z.enum(VISIBILITIES),
    protected_at: ZDateTime,
    log_index: ZCount,
    issuer: z.object({ id: ZUuid, name: z.string() }),
    creator: z.object({ name: z.string(), portfolio_url: z.url() }).nullable().meta({ description: "null for a private protection." }),
    title: z.string().nullable(),
    description: z.string().nullable(),
    file_name: z.string().nullable(),
    content_type: z.string().nullable(),
    file_size: ZCount.nullable(),
    verification_count: ZCount,
    verify_url: z.url(),
    share_url: z.url(),
    proof_bundle_url: z.url(),
    fingerprints: ZFingerprints,
  })
  .meta({ id: "PublicProtection", description: "What a verify link shows: a private protection's metadata is null." });

export const ZCertificate = z
  .object({
    protection: ZPublicProtection,
    proof_bundle: ZProofBundle,
    tlog_proof: z.string(),
    timestamped: z
      .object({ existed_by: ZDateTime, tsa: z.string() })
      .nullable()
      .meta({ description: "What the bundle's RFC 3161 token states, checked against the pinned TSA when stored; null without one." }),
  })
  .meta({ id: "Certificate", description: "What a certificate states and the proofs it carries as attachments." });

export const ZPortfolio = z
  .object({
    creator: z.object({ id: ZUuid, name: z.string(), member_since: ZDateTime, portfolio_url: z.url() }),
    items: z.array(ZPublicProtection),
    total: ZCount,
  })
  .meta({ id: "Portfolio" });

export const ZLookupItem = z
  .object({
    protection_id: ZUuid,
    creator: z.object({ name: z.string(), portfolio_url: z.url() }),
    title: z.string().nullable(),
    category: z.enum(CATEGORIES),
    protected_at: ZDateTime,
    log_index: ZCount,
    verify_url: z.url(),
    share_url: z.url(),
    proof_bundle_url: z.url(),
    tlog_proof_url: z.url(),
  })
  .meta({ id: "LookupItem", description: "A public protection of the bytes looked up." });

export const ZLookup = z
  .object({
    content_hash: ZHex32.optional().meta({ description: "The SHA-256 looked up (a lookup by content_hash)." }),
    pdq: ZHex32.optional().meta({ description: "The PDQ hash looked up (a lookup by pdq)." }),
    max_distance: ZCount.optional().meta({ description: "With pdq: the largest distance counted as similar." }),
    first_protected_at: ZDateTime.nullable().meta({
      description: "The earliest public protection found; null when there is none.",
    }),
    items: z
      .array(
        ZLookupItem.extend({
          distance: ZCount.optional().meta({ description: "With pdq: the Hamming distance between the two PDQ hashes, 0–256." }),
        }),
      )
      .meta({
        description:
          "Public protections: of the bytes, in log order (log_index ascending, the first claim first); of a similar picture, nearest first, then oldest. A similar picture is not proof of copying.",
      }),
    total: ZCount.meta({ description: "How many public protections there are in all." }),
  })
  .meta({
    id: "Lookup",
    description:
      "Who protected a file, or a picture like it, publicly: an unknown hash is an empty result, not 404. A private protection is its owner's alone: the answer is the same whether or not one exists (it no longer carries a `private` member).",
  });

export const ZOEmbed = z
  .object({
    version: z.literal("1.0"),
    type: z.literal("rich"),
    provider_name: z.literal("Hallmark"),
    provider_url: z.url(),
    title: z.string(),
    author_name: z.string().optional(),
    author_url: z.url().optional(),
    cache_age: ZCount,
    html: z.string().meta({ description: "The badge inside a link to the verify page: no script, no iframe." }),
    width: ZCount,
    height: ZCount,
    thumbnail_url: z.url().optional(),
    thumbnail_width: ZCount.optional(),
    thumbnail_height: ZCount.optional(),
  })
  .meta({ id: "OEmbed", description: "An oEmbed 1.0 rich response (https://oembed.com)." });
