// @hallmark-test db=sqlite,postgres lane=main
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, baseUrls, dbKind, expectProblem, expectSameProblem, type ApiResponse } from "./helpers";
import { itWhere } from "./only-where";
import { mailsTo, verificationLink, waitForMail } from "./mail";
import { seedConsumer } from "../accounts";

const PASSWORD = "correct horse battery staple";
const newEmail = () => `user-${randomUUID().slice(0, 12)}@example.com`;
/** A client address of its own, so throttling tests never share a bucket with other tests. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;

function login(email: string, password: string, opts: { client?: string; headers?: Record<string, string>; instance?: number } = {}) {
  return api("/v1/consumer/login", {
    json: { email, password },
    headers: { "x-forwarded-for": opts.client ?? newClient(), ...opts.headers },
    instance: opts.instance,
  });
}

const setCookie = (res: ApiResponse) => res.headers.get("set-cookie") ?? "";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const cookie = (token: string) => ({ cookie: `next-auth.session-token=${token}` });
/** What a browser adds to a request from Hallmark's own pages (a cookie-borne change needs it). */
const fromOwnPage = (instance = 0) => ({ origin: baseUrls[instance]! });

/** Signs up and returns the verification token of the e-mail that arrives. */
async function signUp(email: string, name = "Ada Lovelace"): Promise<string> {
  const res = await api("/v1/consumer/signup", { json: { email, password: PASSWORD, name }, headers: { "x-forwarded-for": newClient() } });
  expect(res.status, res.text).toBe(202);
  return verificationLink((await waitForMail(email)).at(-1)!).token;
}

/** Expires a verification token in place (its expiry set to its creation time): a sign-up's, or an account's. */
async function expireToken(token: string): Promise<void> {
  const hash = createHash("sha256").update(token).digest("hex");
  const updates = ["registrations", "email_tokens"].map((t) => `UPDATE ${t} SET expires_at = created_at WHERE token_hash = `);
  const url = process.env.DATABASE_URL ?? "";
  let changed = 0;
  if (url.startsWith("file:")) {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(url.slice("file:".length), { timeout: 5000 });
    try {
      for (const sql of updates) changed += db.prepare(`${sql}?`).run(hash).changes;
    } finally {
      db.close();
    }
  } else {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const sql of updates) changed += (await client.query(`${sql}$1`, [hash])).rowCount ?? 0;
    } finally {
      await client.end();
    }
  }
  expect(changed).toBe(1);
}

describe("consumer sign-up, verification, login and logout", () => {
  it("signs up, verifies through the e-mailed link, logs in, uses the session, and logs out for good", async () => {
    const email = newEmail();
    const signup = await api("/v1/consumer/signup", { json: { email: email.toUpperCase(), password: PASSWORD, name: "Ada" } });
    expect(signup.status, signup.text).toBe(202);
    expect(signup.body).toEqual({ status: "verification_sent", email });

    const [mail] = await waitForMail(email);
    expect(mail!.subject).toMatch(/confirm/i);
    const { link, token } = verificationLink(mail!);
    expect(link).toBe(`${baseUrl}/verify-email?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(mail!.html).toContain(link);

    const verified = await api("/v1/consumer/verify-email", { json: { token, password: PASSWORD } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ status: "verified", email });

    const res = await login(email, PASSWORD);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["session_token", "user"]);
    expect(res.body.user).toEqual({ id: expect.any(String), email, name: "Ada", realm: "consumer" });
    const sessionToken: string = res.body.session_token;
    expect(res.headers.get("cache-control")).toBe("no-store");

    // The cookie: next-auth's name (plain http here, so no __Secure- prefix and no Secure).
    const attrs = setCookie(res)
      .split(";")
      .map((s) => s.trim());
    expect(attrs[0]).toBe(`next-auth.session-token=${sessionToken}`);
    expect(attrs).toContain("HttpOnly");
    expect(attrs).toContain("SameSite=Lax");
    expect(attrs).toContain("Path=/");
    expect(attrs).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(attrs.map((a) => a.toLowerCase())).not.toContain("secure");

    // The session works as Bearer and as cookie; a session has the consumer scopes only.
    for (const headers of [bearer(sessionToken), cookie(sessionToken)]) {
      const keys = await api("/v1/api-keys", { headers });
      expect(keys.status, keys.text).toBe(200);
      expect(keys.body).toEqual([]);
    }
    expectProblem(await api("/v1/issuers", { headers: bearer(sessionToken) }), 403, "insufficient_scope");

    const out = await api("/v1/consumer/logout", { method: "POST", headers: { ...cookie(sessionToken), ...fromOwnPage() } });
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ status: "logged_out" });
    expect(setCookie(out)).toMatch(/^next-auth\.session-token=;.*Max-Age=0/);

    // Ended for good, presented either way, on every endpoint.
    expectProblem(await api("/v1/api-keys", { headers: bearer(sessionToken) }), 401, "invalid_session");
    expectProblem(await api("/v1/api-keys", { headers: cookie(sessionToken) }), 401, "invalid_session");
    expectProblem(await api("/v1/consumer/logout", { method: "POST", headers: bearer(sessionToken) }), 401, "invalid_session");
    expectProblem(await api("/v1/log", { headers: bearer(sessionToken) }), 401, "invalid_session");

    // A stale cookie does not stand in the way of logging in again.
    const again = await login(email, PASSWORD, { headers: { ...cookie(sessionToken), ...fromOwnPage() } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.session_token).not.toBe(sessionToken);
  });

  it("a session sees its own tenant: the consumer's API key, and only its own", async () => {
    const email = newEmail();
    const { apiKey } = await seedConsumer({ email, password: PASSWORD });
    const res = await login(email.toUpperCase(), PASSWORD);
    expect(res.status, res.text).toBe(200);
    const keys = await api("/v1/api-keys", { headers: bearer(res.body.session_token) });
    expect(keys.status).toBe(200);
    expect(keys.body).toHaveLength(1);
    expect(apiKey.startsWith(keys.body[0].prefix)).toBe(true);
    // An API key still takes precedence over a session sent along with it.
    const both = await api("/v1/api-keys", { key: apiKey, headers: bearer("not-a-token") });
    expect(both.status).toBe(200);
  });

  it("rejects forged, garbage and unknown session tokens with 401 invalid_session", async () => {
    for (const token of ["garbage", "a.b.c.d.e", "x".repeat(5000)]) {
      expectProblem(await api("/v1/api-keys", { headers: bearer(token) }), 401, "invalid_session");
      expectProblem(await api("/v1/api-keys", { headers: cookie(token) }), 401, "invalid_session");
    }
  });

  it("a sign-up not yet confirmed cannot log in: its own password gets the very same 401 as a wrong one", async () => {
    const email = newEmail();
    await signUp(email);
    const pending = await login(email, PASSWORD);
    const wrong = await login(email, "wrong password!");
    expectProblem(pending, 401, "invalid_credentials");
    expectSameProblem(pending, wrong);
    expect(pending.headers.get("set-cookie")).toBeNull();
  });

  it("a wrong password and an unknown e-mail get the very same 401", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const wrong = await login(email, "not the password");
    const unknown = await login(newEmail(), "not the password");
    expectProblem(wrong, 401, "invalid_credentials");
    expect(unknown.status).toBe(401);
    expectSameProblem(unknown, wrong);
    expect(unknown.headers.get("set-cookie")).toBeNull();
  });

  it("verification links work once; unknown and malformed tokens are 400 invalid_token", async () => {
    const email = newEmail();
    const token = await signUp(email);
    expect((await api("/v1/consumer/verify-email", { json: { token, password: PASSWORD } })).status).toBe(200);
    expectProblem(await api("/v1/consumer/verify-email", { json: { token, password: PASSWORD } }), 400, "invalid_token");
    const unknown = Buffer.alloc(32, 7).toString("base64url");
    expectProblem(await api("/v1/consumer/verify-email", { json: { token: unknown } }), 400, "invalid_token");
    expectProblem(await api("/v1/consumer/verify-email", { json: { token: "short" } }), 400, "invalid_token");
  });

  it("an expired verification link is 400 invalid_token", async () => {
    const email = newEmail();
    const token = await signUp(email);
    await expireToken(token);
    expectProblem(await api("/v1/consumer/verify-email", { json: { token, password: PASSWORD } }), 400, "invalid_token");
    // A sign-up whose link expired is gone: nothing holds its password any more.
    expectProblem(await login(email, PASSWORD), 401, "invalid_credentials");
  });

  it("signing up again with a taken address answers the same and mails the owner a notice", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    const fresh = await api("/v1/consumer/signup", { json: { email: newEmail(), password: PASSWORD, name: "X" } });
    const taken = await api("/v1/consumer/signup", { json: { email, password: "another password", name: "Mallory" } });
    expect(taken.status).toBe(202);
    expect(taken.body).toEqual({ status: "verification_sent", email });
    expect(Object.keys(taken.body)).toEqual(Object.keys(fresh.body));
    const [notice] = await waitForMail(email);
    expect(notice!.subject).toMatch(/already have/i);
    expect(notice!.text).not.toMatch(/verify-email/);
    // The account is untouched: the old password still logs in, the new one does not.
    expect((await login(email, PASSWORD)).status).toBe(200);
    expectProblem(await login(email, "another password"), 401, "invalid_credentials");
  });

  it("resend answers the same for any address; a new link replaces the earlier ones", async () => {
    const email = newEmail();
    const first = await signUp(email);
    const known = await api("/v1/consumer/resend-verification", { json: { email } });
    const unknownEmail = newEmail();
    const unknown = await api("/v1/consumer/resend-verification", { json: { email: unknownEmail } });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual({ status: "verification_sent", email });
    expect(unknown.body).toEqual({ status: "verification_sent", email: unknownEmail });
    expect(known.headers.get("content-type")).toBe(unknown.headers.get("content-type"));

    const mails = await waitForMail(email, 2);
    const second = verificationLink(mails.at(-1)!).token;
    expect(second).not.toBe(first);
    expectProblem(await api("/v1/consumer/verify-email", { json: { token: first, password: PASSWORD } }), 400, "invalid_token");
    expect((await api("/v1/consumer/verify-email", { json: { token: second, password: PASSWORD } })).status).toBe(200);
    expect((await login(email, PASSWORD)).status).toBe(200);

    // Verified now: a resend sends nothing more, and still answers the same.
    const after = await api("/v1/consumer/resend-verification", { json: { email } });
    expect(after.status).toBe(202);
    expect(after.body).toEqual(known.body);
    expect(await mailsTo(unknownEmail)).toHaveLength(0);
  });

  it("throttles failed logins per account and address: 429 with Retry-After, even for the right password", async () => {
    const email = newEmail();
    const client = newClient();
    await seedConsumer({ email, password: PASSWORD });
    for (let i = 0; i < 5; i++) expectProblem(await login(email, `wrong-${i}-password`, { client }), 401, "invalid_credentials");
    for (const password of ["wrong again!", PASSWORD]) {
      const blocked = await login(email, password, { client });
      expectProblem(blocked, 429, "too_many_attempts");
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    }
    // An unknown address is throttled exactly the same way.
    const ghost = newEmail();
    for (let i = 0; i < 5; i++) expectProblem(await login(ghost, "wrong password", { client }), 401, "invalid_credentials");
    expectProblem(await login(ghost, "wrong password", { client }), 429, "too_many_attempts");
  });

  it("a successful login resets the account's failure count", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: PASSWORD });
    for (let i = 0; i < 4; i++) expectProblem(await login(email, "wrong password"), 401, "invalid_credentials");
    expect((await login(email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expectProblem(await login(email, "wrong password"), 401, "invalid_credentials");
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it("throttles failed logins per client address (the last X-Forwarded-For entry)", async () => {
    const client = newClient();
    for (let i = 0; i < 20; i++) expectProblem(await login(newEmail(), "wrong password", { client }), 401, "invalid_credentials");
    const blocked = await login(newEmail(), "wrong password", { client: `203.0.113.9, ${client}` });
    expectProblem(blocked, 429, "too_many_attempts");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected, nor is a forged first entry taken for the client.
    expectProblem(await login(newEmail(), "wrong password", { client: `${client}, ${newClient()}` }), 401, "invalid_credentials");
  });

  it("answers every validation failure with 422 and pointers", async () => {
    const cases: [string, unknown, string[]][] = [
      ["/v1/consumer/signup", {}, ["/email", "/name", "/password"]],
      ["/v1/consumer/signup", { email: "not-an-email", password: "short", name: "" }, ["/email", "/name", "/password"]],
      ["/v1/consumer/signup", { email: newEmail(), password: "x".repeat(257), name: "n".repeat(101) }, ["/name", "/password"]],
      ["/v1/consumer/signup", { email: newEmail(), password: PASSWORD, name: "A", plan: "pro" }, ["/plan"]],
      ["/v1/consumer/verify-email", {}, ["/token"]],
      ["/v1/consumer/verify-email", { token: 42 }, ["/token"]],
      ["/v1/consumer/resend-verification", { email: "nope" }, ["/email"]],
      ["/v1/consumer/resend-verification", { email: newEmail(), extra: 1 }, ["/extra"]],
      ["/v1/consumer/login", {}, ["/email", "/password"]],
      ["/v1/consumer/login", { email: "a@b.c", password: "x".repeat(257) }, ["/password"]],
      ["/v1/consumer/login", { email: "a@b.c", password: "p", remember: true }, ["/remember"]],
      ["/v1/consumer/login", [], [""]],
    ];
    for (const [path, json, pointers] of cases) {
      const res = await api(path, { json, headers: { "x-forwarded-for": newClient() } });
      expectProblem(res, 422, "validation_failed");
      expect([...new Set(res.body.errors.map((e: { pointer: string }) => e.pointer))].sort(), `${path} ${JSON.stringify(json)}`).toEqual(
        pointers,
      );
    }
    const notJson = await api("/v1/consumer/login", { raw: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectProblem(notJson, 415, "unsupported_media_type");
    const wrongMethod = await api("/v1/consumer/login");
    expectProblem(wrongMethod, 405, "method_not_allowed");
  });

  it("login needs no API key, but an invalid one sent is still 401; logout needs a session", async () => {
    const email = newEmail();
    const { apiKey } = await seedConsumer({ email, password: PASSWORD });
    expectProblem(await api("/v1/consumer/login", { json: { email, password: PASSWORD }, key: "hm_live_invalid" }), 401, "invalid_api_key");
    expectProblem(await api("/v1/consumer/logout", { method: "POST" }), 401, "unauthenticated");
    expectProblem(await api("/v1/consumer/logout", { method: "POST", key: apiKey }), 401, "unauthenticated");
  });

  itWhere(baseUrls.length > 1, "needs two app instances, which the PostgreSQL run has")(
    `a session ended on one instance is 401 on the other (${dbKind})`,
    async () => {
      const email = newEmail();
      await seedConsumer({ email, password: PASSWORD });
      const res = await login(email, PASSWORD, { instance: 0 });
      expect(res.status).toBe(200);
      const token = res.body.session_token;
      expect((await api("/v1/api-keys", { headers: bearer(token), instance: 1 })).status).toBe(200);
      expect((await api("/v1/consumer/logout", { method: "POST", headers: bearer(token), instance: 0 })).status).toBe(200);
      expectProblem(await api("/v1/api-keys", { headers: bearer(token), instance: 1 }), 401, "invalid_session");
      // …and one started on instance 1 works on instance 0 (one secret, one table).
      const other = await login(email, PASSWORD, { instance: 1 });
      expect((await api("/v1/api-keys", { headers: cookie(other.body.session_token), instance: 0 })).status).toBe(200);
    },
  );
});
