import { z } from "zod";
import { ZJsonObject } from "../schemas/common";
import { MAX_PAYLOAD_DEPTH } from "../../domain/attestations";
import { MAX_BATCH_ITEMS } from "../../domain/attestations";

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_PAYLOAD_DEPTH || value === null || typeof value !== "object") return depth;
  let max = depth;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v, depth + 1));
  return max;
}

/**
 * A JSON object, nested at most MAX_PAYLOAD_DEPTH levels (its size is checked where it is
 * canonicalised, in createAttestation; what RFC 8785 could not canonicalise exactly, such as a
 * lone surrogate or 1e400, was refused when the body was parsed: server/http/json-text.ts). The
 * parsed object itself is passed on, never a copy: z.record rebuilds the object by assignment,
 * which silently drops a "__proto__" member, so the signed payload would differ from the sent one.
 */
export const ZPayload = ZJsonObject().superRefine((payload, ctx) => {
  if (depthOf(payload) > MAX_PAYLOAD_DEPTH) {
    ctx.addIssue({ code: "custom", message: `must nest at most ${MAX_PAYLOAD_DEPTH} levels deep` });
  }
});

export const ZCreateAttestationInput = z.strictObject({
  issuer_id: z.uuid(),
  payload: ZPayload,
  sealed: z
    .boolean()
    .optional()
    .describe(
      "true: the public log holds only a commitment to this attestation (a sealed leaf signed by the deployment's sealing issuer), which this account's proof bundle opens; default false. In a batch, every item or none.",
    ),
});

export const ZCreateAttestationBatchInput = z.strictObject({
  items: z.array(ZCreateAttestationInput).min(1).max(MAX_BATCH_ITEMS),
});
