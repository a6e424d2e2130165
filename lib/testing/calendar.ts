// The calendar the servers count quotas and budgets in (server/limits/calendar.ts): the wall
// clock shifted by HALLMARK_TEST_CLOCK_OFFSET_MS, which scripts/test.mjs gives the servers and the
// tests alike (mid-month, mid-day: no day or month ends while the suite counts). Reckoned here
// on its own, not imported: the tests check the server's arithmetic.

const offset = (): number => Number(process.env.HALLMARK_TEST_CLOCK_OFFSET_MS ?? 0);

/** The calendar's time at wall-clock `at` (default now). */
export const calendarNow = (at: number = Date.now()): Date => new Date(at + offset());

/** The calendar month ("YYYY-MM") holding wall-clock `at`. */
export const calendarMonth = (at: number = Date.now()): string => calendarNow(at).toISOString().slice(0, 7);

/** Seconds from now until the calendar's next UTC month begins. */
export function secondsToMonthEnd(): number {
  const now = calendarNow();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
}

/** Seconds from now until the calendar's next UTC midnight. */
export function secondsToMidnight(): number {
  const now = calendarNow();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
}
