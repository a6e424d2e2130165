import { z } from "zod";
import { ERRORS, type ErrorCode } from "../../errors";
import { isUuid } from "../../domain/ids";

/** A JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A JSON object, passed through as it is: never a copy. z.record rebuilds the object by
 * assignment, which silently drops a "__proto__" member, so a signed payload would differ from
 * the one sent.
 */
export const ZJsonObject = (message = "must be a JSON object") =>
  z.custom<Record<string, unknown>>(isJsonObject, { message }).meta({ override: { type: "object" } });

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * An id to look up. Every id Hallmark makes is a UUID, so anything else names nothing: it is
 * looked up as the nil UUID, which no row has, and gets the procedure's own answer for an
 * unknown id (404), on a page as in a call, and never reaches the database as text it cannot hold.
 */
export const ZId = z
  .string()
  .transform((id) => (isUuid(id) ? id : NIL_UUID))
  .meta({ description: "A UUID; anything else is simply not found." });

/** The input of a procedure that reads one thing by its id (a path's {id}). */
export const ZIdInput = z.object({ id: ZId });

/** Whether a proof may be served before the witnesses' quorum cosigned its checkpoint (server/log/proof-checkpoint.ts). */
export const ZWitnessedParam = z.enum(["required", "optional"]).optional().meta({
  description:
    "required (default): under a witness policy, the proof's checkpoint meets the quorum; a fresh entry's proof waits a few seconds for it, then answers 503 not_yet_witnessed with Retry-After. optional: the newest checkpoint at once, cosigned or not (Hallmark-Witnessed says which).",
});

/** A proof's input: its id, and whether it may be served before the quorum cosigned it. */
export const ZProofInput = ZIdInput.extend({ witnessed: ZWitnessedParam });

// Spelled out rather than /i, so the pattern means the same in the OpenAPI document.
const CONTENT_HASH = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

/** A SHA-256 digest as sent: 64 hex digits, optionally prefixed "sha256:"; normalised to lowercase hex. */
export const ZContentHashInput = z
  .string()
  .regex(CONTENT_HASH, 'must be a SHA-256 digest: 64 hexadecimal characters, optionally prefixed "sha256:"')
  .transform((s) => CONTENT_HASH.exec(s)![1]!.toLowerCase());

/** A PDQ hash as sent (lib/fingerprint): 64 hex digits; normalised to lowercase. */
export const ZPdqHashInput = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "must be a PDQ hash: 64 hexadecimal characters")
  .transform((s) => s.toLowerCase());

/** A SHA-256 digest as answered: 64 lowercase hex digits. */
export const ZHex32 = z.string().regex(/^[0-9a-f]{64}$/);

/** A uuid as answered. */
export const ZUuid = z.uuid();

/** A time as answered: ISO 8601 in UTC with milliseconds (Date.prototype.toISOString). */
export const ZDateTime = z.iso.datetime();

/** A count or index (JSON numbers up to 2^53 - 1). */
export const ZCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A page of a list: its items and how many there are in all. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: ZCount });

/** One field's failure: an RFC 6901 pointer into the request and what is wrong there. */
export const ZFieldError = z.object({ pointer: z.string(), detail: z.string() }).meta({ id: "FieldError" });

/** RFC 9457 problem details, as every failure is answered (server/http/problem.ts). */
export const ZProblem = z
  .object({
    type: z.string().meta({ description: "urn:hallmark:problem:<code>" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z
      .enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]])
      .meta({ description: "Stable and snake_case: what a program acts on." }),
    request_id: z.string().meta({ description: "The answer's X-Request-Id: quote it when reporting a problem." }),
    instance: z.string().optional(),
    errors: z.array(ZFieldError).optional().meta({ description: "Field-level failures of a request that failed validation." }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details with a stable code." });
