// @hallmark-test db=sqlite,postgres lane=main
// Monthly mint quotas per plan (free 50, creator 500, pro unlimited), exact under concurrency.
import { describe, expect, it } from "vitest";
import { api, baseUrls, expectProblem, mint, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";
import { calendarNow, secondsToMonthEnd } from "../../lib/testing/calendar";

function nextMonth(now = calendarNow()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

async function mintMany(key: string, n: number, concurrency = 8) {
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (left > 0) {
        left--;
        const res = await mint(key, { content_hash: randomContentHash() }, undefined, w % baseUrls.length);
        expect(res.status, res.text).toBe(201);
      }
    }),
  );
}

describe("plan quotas", () => {
  it("reports usage for a new account on each plan", async () => {
    const now = calendarNow();
    const month = now.toISOString().slice(0, 7);
    for (const [plan, limit] of [
      ["free", 50],
      ["creator", 500],
      ["pro", null],
    ] as const) {
      const { apiKey } = await seedConsumer({ plan });
      const res = await api("/v1/consumer/usage", { key: apiKey });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ plan, month, used: 0, limit, remaining: limit, resets_at: nextMonth(now).toISOString() });
    }
  });

  it("lets exactly one of ten concurrent mints through at 49 of 50, then answers 429 with Retry-After", async () => {
    const { apiKey } = await seedConsumer({ plan: "free" });
    await mintMany(apiKey, 49);
    expect((await api("/v1/consumer/usage", { key: apiKey })).body).toMatchObject({ used: 49, remaining: 1 });
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => mint(apiKey, { content_hash: randomContentHash() }, undefined, i % baseUrls.length)),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of burst.filter((x) => x.status !== 201)) expectProblem(r, 429, "quota_exceeded");
    const usage = (await api("/v1/consumer/usage", { key: apiKey })).body;
    expect(usage).toMatchObject({ plan: "free", used: 50, limit: 50, remaining: 0 });
    // The 51st: 429 quota_exceeded, Retry-After = seconds to the next UTC month, nothing written.
    const over = await mint(apiKey, { content_hash: randomContentHash() }, "over-quota");
    expectProblem(over, 429, "quota_exceeded");
    const retryAfter = Number(over.headers.get("retry-after"));
    const expected = secondsToMonthEnd();
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(Math.abs(retryAfter - expected)).toBeLessThan(30);
    const list = await api("/v1/consumer/protections?limit=1", { key: apiKey });
    expect(list.body.total).toBe(50);
    expect((await api("/v1/consumer/usage", { key: apiKey })).body.used).toBe(50);
    // A refused request with an Idempotency-Key is not stored: the same key is answered afresh.
    expectProblem(await mint(apiKey, { content_hash: randomContentHash() }, "over-quota"), 429, "quota_exceeded");
  });

  it("does not limit Pro, and counts its mints", async () => {
    const { apiKey } = await seedConsumer({ plan: "pro" });
    await mintMany(apiKey, 12, 6);
    const usage = (await api("/v1/consumer/usage", { key: apiKey })).body;
    expect(usage).toMatchObject({ plan: "pro", used: 12, limit: null, remaining: null });
  });
});
