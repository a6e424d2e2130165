import { AppError } from "../errors";

/**
 * Payload types beginning with this are Hallmark's own (a protection's is
 * "hallmark.protection/v1"): verifiers and packs (`allowed_payload_types`) take an attestation of
 * such a type for one Hallmark made, so an organisation may not sign one. Compared without case
 * or surrounding white space, so no near-copy passes for a variant.
 */
export const RESERVED_PAYLOAD_TYPE_PREFIX = "hallmark.";

/** The payload `type` of a creator's protection's attestation. */
export const PROTECTION_PAYLOAD_TYPE = "hallmark.protection/v1";

export const isReservedPayloadType = (type: unknown): boolean =>
  typeof type === "string" && type.trim().toLowerCase().startsWith(RESERVED_PAYLOAD_TYPE_PREFIX);

/**
 * Refuses (422 reserved_payload_type, a pointer to each `type`) payloads an organisation asks to
 * sign whose `type` is reserved. `at` is the JSON pointer of each payload in the request.
 */
export function refuseReservedPayloadTypes(payloads: { at: string; payload: Record<string, unknown> }[]): void {
  const errors = payloads
    .filter((p) => isReservedPayloadType(p.payload.type))
    .map((p) => ({
      pointer: `${p.at}/type`,
      detail: `payload types beginning with "${RESERVED_PAYLOAD_TYPE_PREFIX}" are reserved for Hallmark's own attestations`,
    }));
  if (errors.length > 0)
    throw new AppError(
      "reserved_payload_type",
      `Payload types beginning with "${RESERVED_PAYLOAD_TYPE_PREFIX}" are reserved for Hallmark's own attestations; use a type of your own (e.g. "org.example.article/v1").`,
      errors,
    );
}
