import { z } from "zod";
import { AppError } from "../../domain/errors";
import { parseBody } from "./parse-body";
import { withoutNul, ZId } from "./text";
import { ZIntParam } from "./query-params";
import { PACK_STATUSES } from "../../domain/packs";
import { ZPackRules } from "../../domain/pack-rules";

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

/** A PATCH body: valid, and changing at least one field. */
export function parseUpdateBody(body: unknown): z.output<typeof ZUpdatePackBody> {
  const data = parseBody(ZUpdatePackBody, body);
  if (!Object.values(data).some((v) => v !== undefined)) {
    throw new AppError("validation_failed", "The request body failed validation; see errors.", [
      { pointer: "", detail: "send at least one of name, description, category, region, rules, status" },
    ]);
  }
  return data;
}

/** The procedure's input: the path id and the raw body (validated inside, so pointers stay relative to the body). */
export const ZUpdatePackInput = z.object({ id: ZId, body: z.unknown() });

/** POST /v1/attestation-packs/{id}/clone. */
export const ZClonePackBody = z.strictObject({ name: text(200, 1).optional() });
export const ZClonePackInput = z.object({ id: ZId, body: z.unknown() });

export const ZPackIdInput = z.object({ id: ZId });

export const ZListPacksInput = z.strictObject({
  status: z.enum(PACK_STATUSES).optional(),
  is_template: z.enum(["true", "false"]).optional(),
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});
