// @hallmark-test db=sqlite,postgres lane=side-budgets
// Per-key limits: rate_limit_per_minute and daily_quota, the RateLimit headers
// (draft-ietf-httpapi-ratelimit-headers-10), and 429 rate_limited / daily_quota_exceeded.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrls, createKey, expectProblem, type ApiResponse } from "./helpers";
import { seedOrg } from "../accounts";
import { secondsToMidnight } from "../../lib/testing/calendar";

// With several instances the counters are shared only through Redis (scripts/test.mjs sets
// HALLMARK_REDIS_URL when one answers); without it, spread nothing across instances.
const shared = baseUrls.length === 1 || Boolean(process.env.HALLMARK_REDIS_URL);
const instanceFor = (i: number) => (shared ? i % baseUrls.length : 0);

/** Parses `"name";r=1;t=2` (one item) into its parts. */
function rateLimit(res: ApiResponse): { name: string; r: number; t: number } {
  const value = res.headers.get("ratelimit") ?? "";
  const m = /^"(minute|day)";r=(\d+);t=(\d+)$/.exec(value);
  expect(m, `RateLimit: ${value}`).not.toBeNull();
  return { name: m![1]!, r: Number(m![2]), t: Number(m![3]) };
}

describe("per-key limits", () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await seedOrg()).apiKey;
  });

  it("announces the key's policies and counts down the remaining requests on successful answers", async () => {
    const k = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 10, daily_quota: 1000 });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await api("/v1/issuers", { key: k.key, instance: instanceFor(i) });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=10;w=60, "day";q=1000;w=86400');
      seen.push(rateLimit(res));
    }
    expect(seen.map((s) => [s.name, s.r])).toEqual([
      ["minute", 9],
      ["minute", 8],
      ["minute", 7],
    ]);
    for (const s of seen) {
      expect(s.t).toBeGreaterThanOrEqual(1);
      expect(s.t).toBeLessThanOrEqual(60);
    }
    // Errors are answers too: they carry the headers and spend a request.
    const missing = await api(`/v1/issuers/${randomUUID()}`, { key: k.key });
    expectProblem(missing, 404, "not_found");
    expect(rateLimit(missing)).toMatchObject({ name: "minute", r: 6 });
  });

  it("sends no RateLimit fields to a request without a key", async () => {
    const res = await api("/v1/log");
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit")).toBeNull();
    expect(res.headers.get("ratelimit-policy")).toBeNull();
  });

  it(`lets exactly rate_limit_per_minute of 20 concurrent requests through, then 429 rate_limited${shared && baseUrls.length > 1 ? " (across instances)" : ""}`, async () => {
    const k = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 5 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api("/v1/issuers", { key: k.key, instance: instanceFor(i) })));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok.length).toBe(5);
    expect(refused.length).toBe(15);
    expect(ok.map((a) => rateLimit(a).r).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const res of refused) {
      expectProblem(res, 429, "rate_limited");
      const retry = Number(res.headers.get("retry-after"));
      expect(Number.isInteger(retry)).toBe(true);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=5;w=60, "day";q=100000;w=86400');
      expect(rateLimit(res)).toEqual({ name: "minute", r: 0, t: retry });
    }
    // Another key of the same tenant has its own budget.
    const other = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 5 });
    expect((await api("/v1/issuers", { key: other.key })).status).toBe(200);
    expect((await api("/v1/issuers", { key: admin })).status).toBe(200);
    expectProblem(await api("/v1/issuers", { key: k.key }), 429, "rate_limited");
  });

  it("counts one budget per key across every route, found or not", async () => {
    const scopes = ["attestations:read", "issuers:read", "api_keys:read", "packs:read", "verifications:read"];
    const k = await createKey(admin, scopes, { rate_limit_per_minute: 4 });
    const id = randomUUID();
    const paths = [
      "/v1/issuers",
      "/v1/api-keys",
      "/v1/attestation-packs",
      `/v1/attestations/${id}`,
      "/v1/verifications",
      `/v1/issuers/${id}`,
      `/v1/attestations/${id}/proof-bundle`,
      `/v1/attestations/${id}/tlog-proof`,
      `/v1/attestation-packs/${id}`,
      `/v1/verifications/${id}`,
    ];
    const seen: string[] = [];
    for (const p of paths) seen.push(`${p} ${(await api(p, { key: k.key })).status}`);
    // The first four spend the minute's budget (a 404 too); every later one is refused.
    const expected = paths.map((p, i) => `${p} ${i < 4 ? (p.includes(id) ? 404 : 200) : 429}`);
    expect(seen).toEqual(expected);
  });

  it("refuses a write over the limit before anything of it happens", async () => {
    const k = await createKey(admin, ["issuers:read", "issuers:write"], { rate_limit_per_minute: 1 });
    expect((await api("/v1/issuers", { key: k.key })).status).toBe(200);
    const domain = `limited-${randomUUID().slice(0, 8)}.example.org`;
    const res = await api("/v1/issuers", { key: k.key, json: { name: "Refused", domain } });
    expectProblem(res, 429, "rate_limited");
    const list = await api("/v1/issuers", { key: admin });
    expect(list.text).not.toContain(domain);
  });

  it("enforces daily_quota per UTC day: 429 daily_quota_exceeded with Retry-After until the next UTC midnight", async () => {
    const k = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 100, daily_quota: 3 });
    for (let i = 0; i < 3; i++) {
      const res = await api("/v1/issuers", { key: k.key, instance: instanceFor(i) });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=100;w=60, "day";q=3;w=86400');
      const rl = rateLimit(res);
      expect(rl).toMatchObject({ name: "day", r: 2 - i });
      expect(Math.abs(rl.t - Math.ceil(secondsToMidnight()))).toBeLessThanOrEqual(5);
    }
    const res = await api("/v1/issuers", { key: k.key, instance: instanceFor(3) });
    expectProblem(res, 429, "daily_quota_exceeded");
    const retry = Number(res.headers.get("retry-after"));
    expect(Math.abs(retry - Math.ceil(secondsToMidnight()))).toBeLessThanOrEqual(5);
    expect(rateLimit(res)).toEqual({ name: "day", r: 0, t: retry });
  });

  it("answers 401, not 429, to a revoked key, even one over its limit", async () => {
    const k = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 1 });
    expect((await api("/v1/issuers", { key: k.key })).status).toBe(200);
    expectProblem(await api("/v1/issuers", { key: k.key }), 429, "rate_limited");
    expect((await api(`/v1/api-keys/${k.id}/revoke`, { key: admin, method: "POST" })).status).toBe(200);
    const res = await api("/v1/issuers", { key: k.key });
    expectProblem(res, 401, "invalid_api_key");
    expect(res.headers.get("ratelimit")).toBeNull();
  });

  it("does not spend the daily quota on requests refused per minute; the minute window then resets", async () => {
    // The day is the calendar's UTC day, and this test waits out a minute: started close to
    // midnight (only where no run set the calendar mid-day), it waits for midnight first.
    const toMidnight = secondsToMidnight() * 1000;
    if (toMidnight < 75_000) await new Promise((r) => setTimeout(r, toMidnight + 1000));
    const k = await createKey(admin, ["issuers:read"], { rate_limit_per_minute: 2, daily_quota: 3 });
    const first = await api("/v1/issuers", { key: k.key });
    expect(rateLimit(first)).toMatchObject({ name: "minute", r: 1 });
    expect(rateLimit(await api("/v1/issuers", { key: k.key }))).toMatchObject({ name: "minute", r: 0 });
    for (let i = 0; i < 5; i++) expectProblem(await api("/v1/issuers", { key: k.key, instance: instanceFor(i) }), 429, "rate_limited");
    // Wait out the minute window (t of the first answer), then the day still has 1 left.
    const wait = Number((await api("/v1/issuers", { key: k.key })).headers.get("retry-after"));
    await new Promise((r) => setTimeout(r, (wait + 1) * 1000));
    const after = await api("/v1/issuers", { key: k.key });
    expect(after.status, after.text).toBe(200);
    expect(rateLimit(after)).toMatchObject({ name: "day", r: 0 });
    expectProblem(await api("/v1/issuers", { key: k.key }), 429, "daily_quota_exceeded");
  }, 180_000);
});
