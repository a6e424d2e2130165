import { z } from "zod";
import { text } from "@/lib/text-schemas";
import { ZContentHashInput, ZPdqHashInput } from "../schemas/common";
import { canonicalJson } from "@/lib/verify/jcs";
import { CATEGORIES, FINGERPRINT_ALGS, VISIBILITIES } from "../../domain/protections";
import { ZId } from "../schemas/common";
import { ZPayload } from "./attestations.types";

/** ai_metadata: at most this many bytes of RFC 8785 canonical JSON. */
export const MAX_AI_METADATA_BYTES = 16 * 1024;

// RFC 6838 type/subtype (restricted-name characters), optionally followed by parameters.
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[\x20-\x7e]*)?$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A perceptual fingerprint sent with a mint (lib/fingerprint computes it). */
export const ZFingerprint = z
  .strictObject({
    alg: z.enum(FINGERPRINT_ALGS).meta({ description: "pdq: Meta's PDQ perceptual image hash." }),
    hash: ZPdqHashInput,
    quality: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: "PDQ's quality, 0–100; fingerprints of quality 49 or less are stored but never matched." }),
  })
  .meta({ id: "Fingerprint" });

/** The body of POST /v1/consumer/mint. Unknown members are rejected. */
export const ZMintBody = z.strictObject({
  content_hash: ZContentHashInput,
  title: text(200, 1).nullish(),
  description: text(5000).nullish(),
  content_type: z.string().max(255).regex(MIME, "must be a MIME type such as image/png").nullish(),
  file_name: text(255, 1)
    .refine((s) => !CONTROL.test(s), "must not contain control characters")
    .nullish(),
  file_size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish(),
  category: z.enum(CATEGORIES).default("other"),
  ai_metadata: ZPayload.superRefine((value, ctx) => {
    let size = 0;
    try {
      size = Buffer.byteLength(canonicalJson(value), "utf8");
    } catch {
      return; // ZPayload has reported why it cannot be canonicalised
    }
    if (size > MAX_AI_METADATA_BYTES) {
      ctx.addIssue({ code: "custom", message: `canonical JSON is ${size} bytes; at most ${MAX_AI_METADATA_BYTES} allowed` });
    }
  }).nullish(),
  visibility: z.enum(VISIBILITIES).default("private"),
  fingerprints: z
    .array(ZFingerprint)
    .max(FINGERPRINT_ALGS.length)
    .refine((fs) => new Set(fs.map((f) => f.alg)).size === fs.length, "at most one fingerprint per algorithm")
    .nullish()
    .meta({
      description:
        "Perceptual fingerprints of the file, computed where the file is (npm run fingerprint, or the pages): signed with the protection (sealed with a private one); similar-image lookup finds a public protection's, never a private one's.",
    }),
});

const ZLimit = z
  .string()
  .regex(/^\d{1,4}$/, "must be an integer from 1 to 100")
  .transform(Number)
  .pipe(z.number().int().min(1, "must be an integer from 1 to 100").max(100, "must be an integer from 1 to 100"));

export const ZListProtectionsInput = z.object({
  limit: ZLimit.optional(),
  cursor: z.string().min(1).max(512).optional(),
  category: z.enum(CATEGORIES).optional(),
  visibility: z.enum(VISIBILITIES).optional(),
});

/** PATCH /v1/consumer/protections/{id}: the path's id and the visibility to give it. */
export const ZSetVisibilityInput = z.strictObject({
  id: ZId,
  visibility: z
    .enum(VISIBILITIES)
    .describe(
      "public: the verify, share and portfolio pages show the work and its proof (with the opening of its sealed log entry); private: only the account sees them from now on",
    ),
  password: z.string().min(1).max(256).optional().meta({
    description:
      "The account's current password: required when a session makes a private protection public (its opening is then published for good); not needed to make one private, nor with an API key.",
  }),
});
