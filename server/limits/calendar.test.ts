// The calendar quotas and budgets count in: the wall clock unless a test run shifts it, and then
// the day, the month and the seconds to their ends all move together.
import { afterEach, describe, expect, it, vi } from "vitest";

async function calendarWith(offsetMs: number | undefined) {
  vi.resetModules();
  if (offsetMs === undefined) vi.stubEnv("HALLMARK_TEST_CLOCK_OFFSET_MS", undefined);
  else vi.stubEnv("HALLMARK_TEST_CLOCK_OFFSET_MS", String(offsetMs));
  return import("./calendar");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const at = new Date("2026-11-30T23:59:30.250Z");

describe("calendar", () => {
  it("is the wall clock's UTC day and month when no offset is set", async () => {
    const { calendarTime, utcDay, utcMonth } = await calendarWith(undefined);
    expect(calendarTime(at)).toBe(at);
    expect(utcDay(at)).toEqual({ day: "2026-11-30", secondsToMidnight: 30 });
    expect(utcMonth(at)).toEqual({ month: "2026-11", end: new Date("2026-12-01T00:00:00Z"), secondsToEnd: 30 });
  });

  it("moves day, month and their ends together by the offset", async () => {
    const { calendarTime, utcDay, utcMonth } = await calendarWith(60_000);
    expect(calendarTime(at).toISOString()).toBe("2026-12-01T00:00:30.250Z");
    expect(utcDay(at)).toEqual({ day: "2026-12-01", secondsToMidnight: 86_370 });
    expect(utcMonth(at)).toEqual({ month: "2026-12", end: new Date("2027-01-01T00:00:00Z"), secondsToEnd: 31 * 86_400 - 30 });
  });

  it("never says 0 seconds are left, on the boundary itself", async () => {
    const { utcDay, utcMonth } = await calendarWith(-250);
    const edge = new Date("2026-12-01T00:00:00.250Z"); // the calendar's 00:00:00.000
    expect(utcDay(edge)).toEqual({ day: "2026-12-01", secondsToMidnight: 86_400 });
    expect(utcDay(new Date(edge.getTime() - 1))).toEqual({ day: "2026-11-30", secondsToMidnight: 1 });
    expect(utcMonth(new Date(edge.getTime() - 1)).secondsToEnd).toBe(1);
  });

  it("refuses an offset that is not a whole number of milliseconds", async () => {
    const { readEnv } = await import("../env.mjs");
    expect(() => readEnv({ HALLMARK_TEST_CLOCK_OFFSET_MS: "soon" })).toThrow(/HALLMARK_TEST_CLOCK_OFFSET_MS/);
    expect(() => readEnv({ HALLMARK_TEST_CLOCK_OFFSET_MS: "1.5" })).toThrow(/HALLMARK_TEST_CLOCK_OFFSET_MS/);
    expect(readEnv({}).testClockOffsetMs).toBe(0);
  });
});
