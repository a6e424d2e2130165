import { z } from "zod";
import { ZContentHashInput, ZJsonObject } from "../schemas/common";
import { ZIntParam } from "./query-params";

/**
 * POST /v1/verifications: exactly one of attestation_id (the caller's) and bundle (any proof
 * bundle, verified as given), optionally a pack and the content hash of the file at hand.
 */
export const ZRunVerificationInput = z
  .strictObject({
    attestation_id: z.uuid("must be an attestation id (UUID)").optional(),
    // The object itself is passed to the verifier (z.record would rebuild it and drop "__proto__").
    bundle: ZJsonObject("must be a proof bundle object").optional(),
    pack_id: z.uuid("must be a pack id (UUID)").optional(),
    content_hash: ZContentHashInput.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.attestation_id !== undefined && b.bundle !== undefined) {
      ctx.addIssue({ code: "custom", path: ["bundle"], message: "send either attestation_id or bundle, not both" });
    } else if (b.attestation_id === undefined && b.bundle === undefined) {
      ctx.addIssue({ code: "custom", path: ["attestation_id"], message: "send attestation_id or bundle" });
    }
  });

export const ZListVerificationsInput = z.object({
  pack_id: z.uuid("must be a pack id (UUID)").optional(),
  result: z.enum(["pass", "fail"]).optional(),
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
