import { z } from "zod";
import { hasLoneSurrogate } from "@/lib/verify/encoding";
import { MAX_PAYLOAD_DEPTH } from "../../domain/limits";

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_PAYLOAD_DEPTH || value === null || typeof value !== "object") return depth;
  let max = depth;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v, depth + 1));
  return max;
}

/** What RFC 8785 cannot canonicalise: unpaired surrogates, and numbers JSON.parse made infinite (1e400). */
function invalidValue(value: unknown): string | null {
  if (typeof value === "string") return hasLoneSurrogate(value) ? "must not contain unpaired UTF-16 surrogates" : null;
  if (typeof value === "number") return Number.isFinite(value) ? null : "numbers must be finite IEEE 754 doubles";
  if (value === null || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value)) {
    const problem = hasLoneSurrogate(k) ? "must not contain unpaired UTF-16 surrogates" : invalidValue(v);
    if (problem) return problem;
  }
  return null;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Any JSON object RFC 8785 can canonicalise (its size is checked where it is canonicalised, in createAttestation). The
 * parsed object itself is passed on, never a copy: z.record rebuilds the object by assignment,
 * which silently drops a "__proto__" member, so the signed payload would differ from the sent one.
 */
export const ZPayload = z
  .custom<Record<string, unknown>>(isJsonObject, { message: "must be a JSON object" })
  .superRefine((payload, ctx) => {
    if (depthOf(payload) > MAX_PAYLOAD_DEPTH) {
      ctx.addIssue({ code: "custom", message: `must nest at most ${MAX_PAYLOAD_DEPTH} levels deep` });
      return;
    }
    const problem = invalidValue(payload);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return;
    }
  });

export const ZCreateAttestationInput = z.strictObject({
  issuer_id: z.uuid(),
  payload: ZPayload,
});

export const ZIdInput = z.object({ id: z.string() });
