import { z } from "zod";
import { ZId } from "./text";
import { ZIntParam } from "./query-params";

const CONTENT_HASH = /^(?:sha256:)?([0-9a-f]{64})$/i;
const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * POST /v1/verifications: exactly one of attestation_id (the caller's) and bundle (any proof
 * bundle, verified as given), optionally a pack and the content hash of the file at hand.
 */
export const ZRunVerificationInput = z
  .strictObject({
    attestation_id: z.uuid("must be an attestation id (UUID)").optional(),
    // The object itself is passed to the verifier (z.record would rebuild it and drop "__proto__").
    bundle: z.custom<Record<string, unknown>>(isJsonObject, { message: "must be a proof bundle object" }).optional(),
    pack_id: z.uuid("must be a pack id (UUID)").optional(),
    content_hash: z
      .string()
      .regex(CONTENT_HASH, 'must be a SHA-256 digest: 64 hexadecimal characters, optionally prefixed "sha256:"')
      .transform((s) => CONTENT_HASH.exec(s)![1]!.toLowerCase())
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.attestation_id !== undefined && b.bundle !== undefined) {
      ctx.addIssue({ code: "custom", path: ["bundle"], message: "send either attestation_id or bundle, not both" });
    } else if (b.attestation_id === undefined && b.bundle === undefined) {
      ctx.addIssue({ code: "custom", path: ["attestation_id"], message: "send attestation_id or bundle" });
    }
  });

export const ZVerificationIdInput = z.object({ id: ZId });

export const ZListVerificationsInput = z.strictObject({
  pack_id: z.uuid("must be a pack id (UUID)").optional(),
  result: z.enum(["pass", "fail"]).optional(),
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
