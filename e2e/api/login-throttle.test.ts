// @hallmark-test db=sqlite,postgres lane=main
// The login throttle holds however many attempts arrive at once and however they are batched
// (on two instances, through the shared limiter): in a window, at most 5 password checks per
// client address and account, 20 per client address, and 50 per account, of which addresses that
// have failed against it may spend only the first 10. Strangers' failures do not lock the owner
// out: the right password from an address that has not failed still works. A check shows as 401
// (wrong) or 200 (right); an attempt refused before the check, as 429.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrls, expectProblem } from "./helpers";
import { seedConsumer } from "../accounts";

const PASSWORD = "correct horse battery staple";
const newEmail = () => `throttle-${randomUUID().slice(0, 12)}@example.com`;
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;

function login(email: string, password: string, client: string, instance = 0) {
  return api("/v1/consumer/login", { json: { email, password }, headers: { "x-forwarded-for": client }, instance });
}

function tally(statuses: number[]) {
  const count = (s: number) => statuses.filter((x) => x === s).length;
  return { checked: count(401) + count(200), refused: count(429), other: statuses.filter((s) => ![200, 401, 429].includes(s)) };
}

describe("login throttle under concurrency and batching", () => {
  it("100 concurrent logins for one account, from 100 addresses, check exactly 50 passwords", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const attempts = Array.from({ length: 100 }, (_, i) => login(email, `wrong-${i}`, newClient(), i % baseUrls.length));
    const t = tally((await Promise.all(attempts)).map((r) => r.status));
    expect(t).toEqual({ checked: 50, refused: 50, other: [] });
    // The account's budget is spent: the right password is refused too, from a fresh address.
    expectProblem(await login(email, PASSWORD, newClient()), 429, "too_many_attempts");
  });

  it("30 concurrent logins for one account, from one address, check exactly 5 passwords", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const client = newClient();
    const attempts = Array.from({ length: 30 }, (_, i) => login(email, `wrong-${i}`, client, i % baseUrls.length));
    expect(tally((await Promise.all(attempts)).map((r) => r.status))).toEqual({ checked: 5, refused: 25, other: [] });
    const blocked = await login(email, PASSWORD, client);
    expectProblem(blocked, 429, "too_many_attempts");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
  });

  it("a stranger's failures lock out only the stranger: the owner logs in from an address that has not failed", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const stranger = newClient();
    for (let i = 0; i < 5; i++) expectProblem(await login(email, `guess-${i}`, stranger), 401, "invalid_credentials");
    expectProblem(await login(email, PASSWORD, stranger), 429, "too_many_attempts");
    expect((await login(email, PASSWORD, newClient())).status).toBe(200);
    // The owner's own typos from the owner's address are still allowed up to the pair's budget.
    const owner = newClient();
    for (let i = 0; i < 4; i++) expectProblem(await login(email, `typo-${i}`, owner), 401, "invalid_credentials");
    expect((await login(email, PASSWORD, owner)).status).toBe(200);
  });

  it("past 10 failures for an account, only addresses that have not failed against it are checked, once each", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const strangers = Array.from({ length: 5 }, newClient);
    for (const s of strangers) for (let i = 0; i < 2; i++) expectProblem(await login(email, "guess", s), 401, "invalid_credentials");
    // 10 failures: every address that failed is refused now, even with the right password.
    for (const s of strangers) expectProblem(await login(email, PASSWORD, s), 429, "too_many_attempts");
    // A fresh address is checked once; after its failure it is refused too.
    const fresh = newClient();
    expectProblem(await login(email, "guess", fresh), 401, "invalid_credentials");
    expectProblem(await login(email, "guess", fresh), 429, "too_many_attempts");
    // The owner, from an address that has not failed, gets in.
    expect((await login(email, PASSWORD, newClient())).status).toBe(200);
  });

  it("30 concurrent logins from one address, to 30 accounts, check exactly 20 passwords", async () => {
    const client = newClient();
    const attempts = Array.from({ length: 30 }, (_, i) => login(newEmail(), "wrong password", client, i % baseUrls.length));
    const t = tally((await Promise.all(attempts)).map((r) => r.status));
    expect(t).toEqual({ checked: 20, refused: 10, other: [] });
  });

  it("counts every address of an IPv6 /64 as one client: 30 logins from 30 of its addresses check exactly 20 passwords", async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const attempts = Array.from({ length: 30 }, (_, i) =>
      login(newEmail(), "wrong password", `${prefix}:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`, i % baseUrls.length),
    );
    expect(tally((await Promise.all(attempts)).map((r) => r.status))).toEqual({ checked: 20, refused: 10, other: [] });
    // Another /64 is another client.
    expect((await login(newEmail(), "wrong password", "2001:db8:ffff:ffff::1")).status).toBe(401);
  });

  it("a tRPC batch of 300 logins is refused before any password is checked", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const calls = Array.from({ length: 300 }, (_, i) => (i === 299 ? PASSWORD : `guess-${i}`));
    const input = Object.fromEntries(calls.map((password, i) => [i, { email, password }]));
    const path = `/api/trpc/${Array(300).fill("consumerAuth.login").join(",")}?batch=1`;
    const res = await api(path, { json: input, headers: { "x-forwarded-for": newClient(), origin: baseUrls[0]! } });
    expectProblem(res, 400, "invalid_parameter");
    expect(res.text).not.toContain("session_token");
    // Nothing was spent: all five checks are still there for the right password.
    for (let i = 0; i < 4; i++) expectProblem(await login(email, "still wrong", newClient()), 401, "invalid_credentials");
    expect((await login(email, PASSWORD, newClient())).status).toBe(200);
  });

  it("a batch carries at most 10 calls, and an account call only alone", async () => {
    const me = (n: number) => `/api/trpc/${Array(n).fill("viewer.me").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`;
    const ten = await api(me(10));
    expect(ten.status, ten.text).toBe(200);
    expect(ten.body).toHaveLength(10);
    const eleven = await api(me(11));
    expect(eleven.status).toBe(400);
    const mixed = await api("/api/trpc/viewer.me,consumerAuth.verifyEmail?batch=1", { json: { 0: {}, 1: { token: "x" } } });
    expectProblem(mixed, 400, "invalid_parameter");
    // Alone, in the batch format the dashboard's client uses, an account call goes through.
    const alone = await api("/api/trpc/consumerAuth.login?batch=1", {
      json: { 0: { email: newEmail(), password: "x" } },
      headers: { "x-forwarded-for": newClient() },
    });
    expect(alone.status, alone.text).toBe(401);
  });

  it("logins through tRPC spend the same budget as REST logins", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const client = newClient();
    const viaTrpc = () =>
      api("/api/trpc/consumerAuth.login", { json: { email, password: "wrong" }, headers: { "x-forwarded-for": client } });
    const statuses = (await Promise.all(Array.from({ length: 20 }, viaTrpc))).map((r) => r.status);
    expect(tally(statuses)).toEqual({ checked: 5, refused: 15, other: [] });
    expectProblem(await login(email, PASSWORD, client), 429, "too_many_attempts");
  });
});
