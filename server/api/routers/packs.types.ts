import { z } from "zod";
import { AppError } from "../../errors";
import { withoutNul } from "@/lib/text-schemas";
import { ZId } from "../schemas/common";
import { ZIntParam } from "./query-params";
import { PACK_STATUSES } from "../../domain/packs";
import { ZPackRules } from "../../domain/packs";

const text = (max: number, min = 0) =>
  withoutNul(
    z
      .string()
      .trim()
      .min(min, min === 1 ? "must not be empty" : `must be at least ${min} characters`)
      .max(max, `must be at most ${max} characters`),
  );

/** POST /v1/attestation-packs. Unknown members are rejected. */
export const ZCreatePackInput = z.strictObject({
  name: text(200, 1),
  description: text(2000).default(""),
  category: text(64, 1).default("custom"),
  region: text(64, 1).default("Global"),
  rules: ZPackRules,
});

/** PATCH /v1/attestation-packs/{id}: the fields to change (at least one). */
export const ZUpdatePackBody = z.strictObject({
  name: text(200, 1).optional(),
  description: text(2000).optional(),
  category: text(64, 1).optional(),
  region: text(64, 1).optional(),
  rules: ZPackRules.optional(),
  status: z.enum(PACK_STATUSES).optional(),
});

/** The changes of a PATCH: at least one field. */
export function requireAChange(changes: z.output<typeof ZUpdatePackBody>): z.output<typeof ZUpdatePackBody> {
  if (!Object.values(changes).some((v) => v !== undefined)) {
    throw new AppError("validation_failed", "The request body failed validation; see errors.", [
      { pointer: "", detail: "send at least one of name, description, category, region, rules, status" },
    ]);
  }
  return changes;
}

/** The procedure's input: the path's id with the body's members. */
export const ZUpdatePackInput = ZUpdatePackBody.extend({ id: ZId });

/** POST /v1/attestation-packs/{id}/clone: the path's id with the body's members. */
export const ZClonePackInput = z.strictObject({ id: ZId, name: text(200, 1).optional() });

export const ZListPacksInput = z.object({
  status: z.enum(PACK_STATUSES).optional(),
  is_template: z.enum(["true", "false"]).optional(),
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
