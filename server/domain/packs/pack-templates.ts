/**
 * The built-in enterprise templates, created for every tenant on its first access to packs
 * and listed in this order. Their rules are data in the rule language (pack-rules.ts); each
 * works for organisation attestations (any payload carrying `category` and `content_hash`)
 * and for consumer protections (payload {type: "hallmark.protection/v1", protection_id,
 * content_hash: "sha256:<hex>", category}).
 *
 * A template's key is its identity: never rename one. A new template added here is created
 * for existing tenants at their next access.
 */
import type { PackRules } from "./pack-rules";

export interface PackTemplate {
  key: string;
  name: string;
  description: string;
  category: string;
  region: string;
  rules: PackRules;
}

export const PACK_TEMPLATES: readonly PackTemplate[] = [
  {
    key: "content-authenticity-baseline",
    name: "Content authenticity baseline",
    description:
      "The minimum any relying party should ask: the attestation is in the transparency log, signed by an Ed25519 key of an issuer that is not suspended, and it names the content it attests by its SHA-256 hash.",
    category: "general",
    region: "Global",
    rules: {
      required_fields: ["content_hash"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
    },
  },
  {
    key: "eu-ai-act-art50-disclosure",
    name: "EU AI Act Art. 50: AI-generated content disclosure",
    description:
      "Article 50 of Regulation (EU) 2024/1689 requires providers of generative AI systems to mark synthetic audio, image, video and text in a machine-readable, detectable way. This pack accepts content that is attested and labelled as AI output (category ai-output), signed with Ed25519 by an issuer that is not suspended.",
    category: "ai-disclosure",
    region: "EU",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["ai-output"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
    },
  },
  {
    key: "newsroom-media-authenticity",
    name: "Newsroom media authenticity",
    description:
      "For editors publishing photos, audio and video from outside sources: the file in hand must hash to the attested content, the material must be media, attested within the last 30 days, by an active issuer whose identity has been verified (trust level VERIFIED or higher).",
    category: "media",
    region: "Global",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["media", "digital-art"],
      min_trust_level: "VERIFIED",
      allowed_issuer_statuses: ["ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
      max_age_days: 30,
      require_content_hash_match: true,
    },
  },
  {
    key: "research-integrity",
    name: "Research integrity",
    description:
      "For journals, funders and institutional repositories: a manuscript, figure or supporting dataset matches the version its author attested, and the attestation comes from an issuer in good standing.",
    category: "research",
    region: "Global",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["research", "dataset", "writing"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
      require_content_hash_match: true,
    },
  },
  {
    key: "source-code-provenance",
    name: "Source-code provenance",
    description:
      "Supply-chain provenance for releases and build artefacts (in the spirit of SLSA): the artefact matches the attested hash, it is attested as code, by an issuer that is not suspended, within the last year of key validity.",
    category: "software-supply-chain",
    region: "Global",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["code"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
      max_age_days: 365,
      require_content_hash_match: true,
    },
  },
  {
    key: "dataset-lineage",
    name: "Dataset lineage",
    description:
      "For AI training and analytics pipelines that must document where data came from (e.g. the training-data documentation duties of the EU AI Act): the dataset file matches its attested hash and is attested as a dataset by an issuer that is not suspended.",
    category: "data-governance",
    region: "Global",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["dataset"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
      require_content_hash_match: true,
    },
  },
  {
    key: "design-ip-registration",
    name: "Design and IP registration",
    description:
      "Evidence of authorship and prior creation for designs, artwork and writing: the work matches its attested hash and, when it is a creator's protection, it is public, so the claim is on the record for anyone to check (a private one is its creator's alone, and fails).",
    category: "intellectual-property",
    region: "Global",
    rules: {
      required_fields: ["content_hash", "category"],
      allowed_categories: ["design", "digital-art", "writing", "media"],
      allowed_issuer_statuses: ["PENDING", "ACTIVE"],
      allowed_key_algorithms: ["Ed25519"],
      required_visibility: "public",
      require_content_hash_match: true,
    },
  },
];

export const TEMPLATE_KEYS: readonly string[] = PACK_TEMPLATES.map((t) => t.key);
