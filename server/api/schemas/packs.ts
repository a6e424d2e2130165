import { z } from "zod";
import { ZPackRules } from "../../domain/packs";
import { PACK_STATUSES } from "../../domain/packs";
import { listOf, ZCount, ZDateTime, ZHex32, ZUuid } from "./common";

/** Answers about verification packs and verifications. */

export const ZPack = z
  .object({
    id: ZUuid,
    tenant_id: ZUuid,
    name: z.string(),
    description: z.string(),
    category: z.string(),
    region: z.string(),
    status: z.enum(PACK_STATUSES),
    is_template: z.boolean(),
    verifications_count: ZCount,
    created_at: ZDateTime,
    updated_at: ZDateTime,
  })
  .meta({ id: "Pack" });

export const ZPackList = listOf(ZPack).meta({ id: "PackList" });

export const ZPackView = ZPack.extend({
  rules: ZPackRules,
  metadata: z.object({
    template_key: z.string().nullable().meta({ description: "The built-in template this pack is (null for a custom pack)." }),
    cloned_from: ZUuid.nullable(),
    rules_version: ZCount,
    revision: ZCount.meta({ description: "Starts at 1; every change adds one. Verifications record it." }),
  }),
}).meta({ id: "PackView" });

export const ZVerification = z
  .object({
    id: ZUuid,
    result: z.enum(["pass", "fail"]),
    checks: z.array(z.object({ name: z.string(), result: z.enum(["pass", "fail"]), reason: z.string() })),
    pack: z.object({ id: ZUuid, name: z.string(), revision: ZCount, verifications_count: ZCount }).nullable(),
    attestation_id: z
      .string()
      .nullable()
      .meta({ description: "The attestation verified; for a bundle, the id it claims. null for a sealed leaf alone, which names none." }),
    protection_id: ZUuid.nullable().meta({
      description:
        "The consumer protection the verified attestation is, when this account may see it: a public one, or its own. Anyone else's private protection is never named (nor counted), exactly as an attestation that is no protection.",
    }),
    entry_kind: z.enum(["open", "opened", "sealed"]).nullable().meta({
      description:
        "What the verified entry is: open (an attestation logged as it is), opened (a sealed entry with its opening: the attestation inside was checked too), sealed (a sealed leaf alone, as the log's tiles show it: its content is its owner's; only its signature and inclusion are checked, and it names no attestation or protection). null when the cryptographic checks failed.",
    }),
    source: z.enum(["attestation", "bundle"]),
    content_hash: ZHex32.nullable(),
    created_at: ZDateTime,
  })
  .meta({ id: "Verification" });

export const ZVerificationList = listOf(ZVerification).meta({ id: "VerificationList" });
