import { z } from "zod";

/**
 * Text that Hallmark stores as text. PostgreSQL's text cannot hold U+0000 (SQLite's can), so
 * it is refused here, with a pointer, on both databases alike: accepted, it would fail the
 * write of every request in its group commit on PostgreSQL. (JSON stored as canonical JSON,
 * such as a payload or ai_metadata, keeps U+0000 escaped and is not affected.) Well-formed
 * Unicode is checked for every string when the JSON is parsed (server/http/json-text.ts).
 */
export const withoutNul = (s: z.ZodString) => s.refine((v) => !v.includes("\u0000"), "must not contain U+0000 (NUL)");

export const text = (max: number, min = 0) => withoutNul(z.string().min(min).max(max));

/** A trimmed name of 1 to `max` characters. */
export const name = (max: number) => withoutNul(z.string().trim().min(1).max(max));
