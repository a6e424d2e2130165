// @hallmark-test db=sqlite,postgres lane=side-budgets
// What an account may spend, whatever credentials it holds: a key's budget within what its plan
// allows (refused above it at creation, bounded at enforcement for a key stored with more), the
// expensive endpoints (lookup, certificate, export) per client address and per account for every
// caller, and sessions' requests per account. Appends nothing to the log (a side lane's file).
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/accounts";
import { CONSUMER_SCOPES } from "@/server/domain/accounts";
import { api, type ApiResponse, baseUrl, createKey, expectProblem, randomContentHash, sessionToken } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const from = (client: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": client, ...extra });
const UNKNOWN_PROTECTION = "0190a0a0-0000-7000-8000-000000000000";

/** The items of a RateLimit field by policy name: `"lookup";r=3;t=60, …` → {lookup: {r: 3, t: 60}}. */
function rateLimits(res: ApiResponse): Record<string, { r: number; t: number }> {
  const out: Record<string, { r: number; t: number }> = {};
  for (const m of (res.headers.get("ratelimit") ?? "").matchAll(/"([a-z-]+)";r=(\d+);t=(\d+)/g)) {
    out[m[1]!] = { r: Number(m[2]), t: Number(m[3]) };
  }
  return out;
}

/** `n` requests at once, in waves of 50 (the server's sockets, not its budgets, would otherwise decide). */
async function many(n: number, send: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (let i = 0; i < n; i += 50) out.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => send(i + j)))));
  return out;
}

/** The export as a client reads it: the whole zip, or the problem. */
async function exportOf(headers: Record<string, string>): Promise<{ status: number; code?: string; limits: string | null }> {
  const res = await fetch(`${baseUrl}/v1/consumer/export`, { headers });
  const bytes = await res.arrayBuffer();
  const code = res.status === 200 ? undefined : (JSON.parse(new TextDecoder().decode(bytes)) as { code: string }).code;
  return { status: res.status, code, limits: res.headers.get("ratelimit") };
}

describe("a key's budget within its plan", () => {
  it("refuses a key larger than the plan allows with 422 and a pointer per figure, and creates nothing", async () => {
    const free = await seedConsumer({ plan: "free" });
    const before = (await api("/v1/api-keys", { key: free.apiKey })).body.length;
    const res = await api("/v1/api-keys", {
      key: free.apiKey,
      json: { name: "huge", scopes: ["protections:read"], rate_limit_per_minute: 1_000_000, daily_quota: 1_000_000_000 },
    });
    expectProblem(res, 422, "validation_failed");
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/daily_quota", "/rate_limit_per_minute"]);
    expect(res.body.errors[0].detail).toMatch(/free plan's keys allow at most/);
    expect((await api("/v1/api-keys", { key: free.apiKey })).body).toHaveLength(before);
    // Exactly the plan's figures are allowed; one more of either is not.
    await createKey(free.apiKey, ["protections:read"], { rate_limit_per_minute: 600, daily_quota: 100_000 });
    expectProblem(
      await api("/v1/api-keys", { key: free.apiKey, json: { name: "k", scopes: ["protections:read"], daily_quota: 100_001 } }),
      422,
      "validation_failed",
    );
    // A larger plan allows more; an organisation the most.
    const creator = await seedConsumer({ plan: "creator" });
    await createKey(creator.apiKey, ["protections:read"], { rate_limit_per_minute: 6_000 });
    expectProblem(
      await api("/v1/api-keys", { key: creator.apiKey, json: { name: "k", scopes: ["protections:read"], rate_limit_per_minute: 6_001 } }),
      422,
      "validation_failed",
    );
    const org = await seedOrg();
    await createKey(org.apiKey, ["issuers:read"], { rate_limit_per_minute: 100_000, daily_quota: 10_000_000 });
    expectProblem(
      await api("/v1/api-keys", { key: org.apiKey, json: { name: "k", scopes: ["issuers:read"], rate_limit_per_minute: 100_001 } }),
      422,
      "validation_failed",
    );
  });

  it("spends a key stored with more than its plan allows within the plan's figures, and lists it so", async () => {
    const free = await seedConsumer({ plan: "free" });
    // As a key made before the bound, or before its account's plan went down: stored as asked.
    const stored = await createApiKey({
      tenantId: free.tenantId,
      userId: free.userId,
      name: "oversize",
      scopes: CONSUMER_SCOPES,
      rateLimitPerMinute: 1_000_000,
      dailyQuota: 1_000_000_000,
    });
    const listed = (await api("/v1/api-keys", { key: free.apiKey })).body.find((k: { id: string }) => k.id === stored.key.id);
    expect(listed).toMatchObject({ rate_limit_per_minute: 600, daily_quota: 100_000 });
    const answers = await many(601, () => api("/v1/consumer/usage", { key: stored.secret }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(600);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(1);
    expectProblem(refused[0]!, 429, "rate_limited");
    expect(refused[0]!.headers.get("ratelimit-policy")).toBe('"minute";q=600;w=60, "day";q=100000;w=86400');
  });
});

describe("how many keys an account holds", () => {
  it("allows a free account 10 active keys, even asked for at once, and 20 created in 24 hours; past either, 409 too_many_keys", async () => {
    const free = await seedConsumer({ plan: "free" });
    const active = async () =>
      (await api("/v1/api-keys", { key: free.apiKey })).body.filter((k: { status: string }) => k.status === "ACTIVE");
    const held = (await active()).length;
    expect(held).toBeGreaterThanOrEqual(1);
    // More creations at once than there is room for: exactly the room succeeds, whatever the interleaving.
    const room = 10 - held;
    const answers = await Promise.all(
      Array.from({ length: room + 3 }, (_, i) =>
        api("/v1/api-keys", { key: free.apiKey, json: { name: `k${i}`, scopes: ["protections:read"] } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(room);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) expectProblem(r, 409, "too_many_keys");
    expect(refused[0]!.body.detail).toMatch(/allows 10 active API keys/);
    expect(await active()).toHaveLength(10);
    // A revoked key leaves room for one more, and only one.
    const spare = answers.find((a) => a.status === 201)!.body.id as string;
    expect((await api(`/v1/api-keys/${spare}/revoke`, { key: free.apiKey, method: "POST" })).status).toBe(200);
    await createKey(free.apiKey, ["protections:read"]);
    expectProblem(
      await api("/v1/api-keys", { key: free.apiKey, json: { name: "over", scopes: ["protections:read"] } }),
      409,
      "too_many_keys",
    );
    // Revoking a spent key for a fresh one renews no budget past 20 creations in 24 hours.
    const revokeOne = async () => {
      const other = (await active()).find((k: { name: string }) => k.name !== "default"); // not the key asking
      expect((await api(`/v1/api-keys/${other.id}/revoke`, { key: free.apiKey, method: "POST" })).status).toBe(200);
    };
    for (let created = held + room + 1; created < 20; created++) {
      await revokeOne();
      await createKey(free.apiKey, ["protections:read"]);
    }
    await revokeOne();
    const daily = await api("/v1/api-keys", { key: free.apiKey, json: { name: "twenty-first", scopes: ["protections:read"] } });
    expectProblem(daily, 409, "too_many_keys");
    expect(daily.body.detail).toMatch(/20 API keys to be created in 24 hours/);
    expect(await active()).toHaveLength(9);
    // A larger plan allows more.
    const creator = await seedConsumer({ plan: "creator" });
    for (let i = 0; i < 10; i++) await createKey(creator.apiKey, ["protections:read"]);
  });
});

describe("lookups and certificates, per client address and per account", () => {
  for (const [what, path, quota, policy] of [
    ["lookup", () => `/v1/lookup?content_hash=${randomContentHash()}`, 120, "lookup"],
    ["certificate", () => `/v1/protections/${UNKNOWN_PROTECTION}/certificate.pdf`, 60, "certificate"],
  ] as const) {
    const ok = what === "lookup" ? 200 : 404;

    it(`${what}: a key spends its address's budget, which a spent address refuses`, async () => {
      const client = newClient();
      const spent = await many(quota, () => api(path(), { headers: from(client) }));
      expect(spent.every((r) => r.status === ok)).toBe(true);
      const { apiKey } = await seedConsumer();
      const keyed = await api(path(), { key: apiKey, headers: from(client) });
      expectProblem(keyed, 429, "rate_limited");
      expect(rateLimits(keyed)[policy]).toMatchObject({ r: 0 });
      // The key's own budget and the account's are stated beside the address's.
      expect(keyed.headers.get("ratelimit-policy")).toContain(`"${policy}";q=${quota};w=60`);
      expect(keyed.headers.get("ratelimit-policy")).toContain('"minute";q=600;w=60');
      // From another address the same key goes through.
      expect((await api(path(), { key: apiKey, headers: from(newClient()) })).status).toBe(ok);
    });

    it(`${what}: every key and session of an account share one budget, from however many addresses`, async () => {
      const owner = await seedConsumer();
      const second = await createKey(owner.apiKey, ["protections:read"]);
      const answers = await many(quota, (i) => api(path(), { key: i % 2 ? second.key : owner.apiKey, headers: from(newClient()) }));
      expect(answers.every((r) => r.status === ok)).toBe(true);
      expect(rateLimits(answers.at(-1)!)[`${policy}-account`]).toBeDefined();
      for (const credentials of [
        { key: owner.apiKey },
        { key: second.key },
        { headers: { authorization: `Bearer ${await sessionToken(owner.email, owner.password)}` } },
      ]) {
        const res = await api(path(), { ...credentials, headers: { ...credentials.headers, ...from(newClient()) } });
        expectProblem(res, 429, "rate_limited");
        expect(res.body.detail).toContain("for one account");
        expect(rateLimits(res)[`${policy}-account`]).toMatchObject({ r: 0 });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      // Another account is not affected.
      expect((await api(path(), { key: (await seedConsumer()).apiKey, headers: from(newClient()) })).status).toBe(ok);
    });
  }
});

describe("the export, per account and per client address", () => {
  it("allows 10 an hour to an account, from any address, key or session", async () => {
    const owner = await seedConsumer();
    const token = await sessionToken(owner.email, owner.password);
    for (let i = 0; i < 10; i++) {
      const credentials: Record<string, string> = i % 2 ? { "x-api-key": owner.apiKey } : { authorization: `Bearer ${token}` };
      const res = await exportOf(from(newClient(), credentials));
      expect(res.status, res.code).toBe(200);
    }
    const refused = await exportOf(from(newClient(), { "x-api-key": owner.apiKey }));
    expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
    expect(refused.limits).toMatch(/"export-account";r=0;t=\d+/);
    expect((await exportOf(from(newClient(), { "x-api-key": (await seedConsumer()).apiKey }))).status).toBe(200);
  });

  it("allows 10 an hour from one address, whatever the accounts", async () => {
    const client = newClient();
    const [a, b, c] = await Promise.all([seedConsumer(), seedConsumer(), seedConsumer()]);
    for (let i = 0; i < 10; i++) expect((await exportOf(from(client, { "x-api-key": (i % 2 ? a : b).apiKey }))).status).toBe(200);
    const refused = await exportOf(from(client, { "x-api-key": c.apiKey }));
    expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
    expect(refused.limits).toMatch(/"export";r=0;t=\d+/);
    expect((await exportOf(from(newClient(), { "x-api-key": c.apiKey }))).status).toBe(200);
  });
});

describe("sessions' requests, per account", () => {
  it("give every session of a free account 600 requests a minute together, on /v1 and the dashboard's tRPC", async () => {
    const owner = await seedConsumer();
    const [first, second] = [await sessionToken(owner.email, owner.password), await sessionToken(owner.email, owner.password)];
    const one = await api("/v1/consumer/usage", { headers: { authorization: `Bearer ${first}` } });
    expect(one.status, one.text).toBe(200);
    expect(one.headers.get("ratelimit-policy")).toBe('"minute";q=600;w=60, "day";q=100000;w=86400');
    expect(rateLimits(one).minute).toMatchObject({ r: 599 });
    const answers = await many(599, (i) => api("/v1/consumer/usage", { headers: { authorization: `Bearer ${i % 2 ? first : second}` } }));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const refused = await api("/v1/consumer/usage", { headers: { authorization: `Bearer ${second}` } });
    expectProblem(refused, 429, "rate_limited");
    expect(refused.body.detail).toContain("sessions together allow 600 requests per minute");
    // The dashboard's endpoint spends the same budget.
    const trpc = await api("/api/trpc/consumer.usage", { headers: { cookie: `next-auth.session-token=${first}` } });
    expectProblem(trpc, 429, "rate_limited");
    // A key of the account has a budget of its own.
    expect((await api("/v1/consumer/usage", { key: owner.apiKey })).status).toBe(200);
  });
});
