/**
 * One Map key for a pair of strings, for the append writers' per-transaction caches: (tenant,
 * Idempotency-Key) and (user, month). Unambiguous because the first of each pair (an id) holds
 * no newline.
 */
export const pairKey = (a: string, b: string): string => `${a}\n${b}`;
