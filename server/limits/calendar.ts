import "server-only";
import { getConfig } from "../config";

/**
 * The calendar that quotas and budgets count in: mints per UTC month (server/domain/plans) and
 * requests per UTC day (request-budgets.ts). It is the wall clock, shifted by
 * HALLMARK_TEST_CLOCK_OFFSET_MS: 0 unless a test run sets it, which scripts/test.mjs does so that
 * no day or month ends while the suite counts (it places the calendar mid-month, mid-day). Only
 * calendars move: signed times (attestations, checkpoints, cosignatures), sessions and rolling
 * windows keep the wall clock.
 */
export function calendarTime(at: Date = new Date()): Date {
  const offset = getConfig().testClockOffsetMs;
  return offset === 0 ? at : new Date(at.getTime() + offset);
}

/** "YYYY-MM-DD" of the calendar day holding `at`, and the whole seconds (at least 1) until it ends. */
export function utcDay(at: Date = new Date()): { day: string; secondsToMidnight: number } {
  const now = calendarTime(at);
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day: now.toISOString().slice(0, 10), secondsToMidnight: Math.max(1, Math.ceil((midnight - now.getTime()) / 1000)) };
}

/** "YYYY-MM" of the calendar month holding `at`, its end (00:00 UTC on the next month's first day, on the calendar), and the whole seconds (at least 1) from `at` until then. */
export function utcMonth(at: Date = new Date()): { month: string; end: Date; secondsToEnd: number } {
  const now = calendarTime(at);
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { month: now.toISOString().slice(0, 7), end, secondsToEnd: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)) };
}
