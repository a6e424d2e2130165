import { z } from "zod";

/**
 * Text that Hallmark stores as text. PostgreSQL's text cannot hold U+0000 (SQLite's can), so
 * it is refused here, with a pointer, on both databases alike: accepted, it would fail the
 * write of every request in its group commit on PostgreSQL. (JSON stored as canonical JSON,
 * such as a payload or ai_metadata, keeps U+0000 escaped and is not affected.) Well-formed
 * Unicode is checked for every string when the JSON is parsed (server/http/json-text.ts).
 */
const NO_NUL = (s: string) => !s.includes("\u0000");
const NUL_MESSAGE = "must not contain U+0000 (NUL)";

export const text = (max: number, min = 0) => z.string().min(min).max(max).refine(NO_NUL, NUL_MESSAGE);

/** A trimmed name of 1 to `max` characters. */
export const name = (max: number) => z.string().trim().min(1).max(max).refine(NO_NUL, NUL_MESSAGE);

/** An id looked up in the database (a UUID when it exists; anything else simply finds nothing). */
export const ZId = z.string().max(256).refine(NO_NUL, NUL_MESSAGE);
