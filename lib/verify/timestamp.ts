// Strict RFC 3339 / ISO 8601 date-time parsing for comparing attestation and key times.
// Accepts YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM) only: no lowercase, no missing zone,
// no out-of-range fields, no leap seconds. Fractions beyond milliseconds are kept exactly.

export interface Instant {
  /** Milliseconds since the Unix epoch (UTC). */
  ms: number;
  /** Nanoseconds within that millisecond (0..999999), so sub-millisecond order is exact. */
  subMsNanos: number;
}

const RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Parses a date-time string; returns null if it is not strictly valid. */
export function parseTimestamp(text: unknown): Instant | null {
  if (typeof text !== "string" || text.length > 40) return null;
  const m = RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  let offsetMin = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[8] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const nanos = Number((m[7] ?? "").padEnd(9, "0"));
  return { ms: date.getTime() - offsetMin * 60_000 + Math.floor(nanos / 1e6), subMsNanos: nanos % 1e6 };
}

/** Negative if a < b, zero if equal, positive if a > b. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.ms !== b.ms ? a.ms - b.ms : a.subMsNanos - b.subMsNanos;
}
