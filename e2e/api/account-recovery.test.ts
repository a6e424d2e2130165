// @hallmark-test db=sqlite,postgres lane=main
// Accounts, round three: what a stolen session, a leaked key or a stranger who knows an address
// can and cannot do, and how the owner takes the account back. One `describe` per item of the
// contract, each over real HTTP against the suite's server, with the mail read from the suite's
// SMTP catcher and, where an effect is a row, the row read from the suite's database.
//
// Every test uses addresses of its own (the mail budgets are per target address and hour) and
// client addresses of its own (X-Forwarded-For, which the suite's server trusts as one proxy's):
// no test spends a budget another test relies on. On the two-instance PostgreSQL run, whose
// instances share their limits through Redis, the budget tests spread their requests over both.
import { createHash, randomUUID } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import { api, type ApiResponse, baseUrl, baseUrls, createKey, expectProblem, expectSameProblem, mint, randomContentHash } from "./helpers";
import { isResetMail, mailsTo, recipients, resetLink, verificationLink } from "./mail";
import { seedConsumer, seedOrg } from "../accounts";

const NEW_KEY_SUBJECT = "A new API key was added to your Hallmark account";
/** A new-key notice: one key's, or the digest of the keys made in the window after it (HALLMARK_KEY_NOTICE_DIGEST_SECONDS, 2 s here). */
const KEY_NOTICE_SUBJECT = /^(A new API key was|New API keys were) added to your Hallmark account$/;
const PASSWORD_CHANGED_SUBJECT = "Your Hallmark password was changed";

const newEmail = () => `recovery-${randomUUID().slice(0, 12)}@example.com`;
/** A client address of its own, so no test shares a per-client bucket with another. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const from = (client = newClient()) => ({ "x-forwarded-for": client });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The session as the dashboard sends it: the cookie, from Hallmark's own page (a cookie-borne change needs it). */
const cookieFromOwnPage = (token: string) => ({ cookie: `next-auth.session-token=${token}`, origin: baseUrl });
const uniqueName = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Which instance the i-th request of a budget test goes to: both, when they share their limits (Redis). */
const sharedLimits = baseUrls.length > 1 && Boolean(process.env.HALLMARK_REDIS_URL);
const at = (i: number) => (sharedLimits ? i % baseUrls.length : 0);

// ---- requests ----

const login = (email: string, password: string, client = newClient(), instance = 0) =>
  api("/v1/consumer/login", { json: { email, password }, headers: from(client), instance });

async function loggedIn(email: string, password: string, client = newClient()): Promise<string> {
  const res = await login(email, password, client);
  expect(res.status, res.text).toBe(200);
  return res.body.session_token as string;
}

const signUp = (email: string, password: string, client = newClient(), instance = 0) =>
  api("/v1/consumer/signup", { json: { email, password, name: "Someone" }, headers: from(client), instance });

/** Asks for a reset link; every answer is 202 reset_sent, whatever the address and the budget. */
async function requestReset(email: string, client = newClient(), instance = 0): Promise<ApiResponse> {
  const res = await api("/v1/consumer/password-reset", { json: { email }, headers: from(client), instance });
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({ status: "reset_sent", email });
  return res;
}

const confirmReset = (token: string, password: string) => api("/v1/consumer/password-reset/confirm", { json: { token, password } });
const resetKeys = (token: unknown) => api("/v1/consumer/password-reset/keys", { json: { token } });
const verify = (token: string, password?: string) => api("/v1/consumer/verify-email", { json: { token, password } });

const changePassword = (session: string, body: Record<string, unknown>, headers: Record<string, string> = {}, instance = 0) =>
  api("/v1/consumer/account/password", { json: body, headers: { ...bearer(session), ...from(), ...headers }, instance });
const changeEmail = (session: string, email: string, password: string, instance = 0) =>
  api("/v1/consumer/account/email", { json: { email, password }, headers: { ...bearer(session), ...from() }, instance });
const deleteAccount = (session: string, password: string, instance = 0) =>
  api("/v1/consumer/account/delete", { json: { password, confirm: "DELETE" }, headers: bearer(session), instance });
const setVisibility = (id: string, auth: { session?: string; key?: string }, body: Record<string, unknown>, instance = 0) =>
  api(`/v1/consumer/protections/${id}`, {
    method: "PATCH",
    json: body,
    key: auth.key,
    headers: auth.session ? bearer(auth.session) : {},
    instance,
  });
/** POST /v1/api-keys from a session (Bearer), with whatever body is given. */
const createKeyBySession = (session: string, body: Record<string, unknown>, headers: Record<string, string> = {}, instance = 0) =>
  api("/v1/api-keys", { json: { scopes: ["protections:read"], ...body }, headers: { ...bearer(session), ...headers }, instance });
/** A call of the dashboard's tRPC endpoint (POST: a mutation). */
const trpc = (procedure: string, input: unknown, headers: Record<string, string> = {}) =>
  api(`/api/trpc/${procedure}`, { json: input, headers });

/** What a session is worth now: 200 while it lives, 401 once ended. */
const sessionStatus = async (token: string) => (await api("/v1/consumer/account", { headers: bearer(token) })).status;
/** What a consumer's API key is worth now: 200 while active, 401 once revoked (GET /v1/consumer/protections). */
const consumerKeyStatus = async (key: string) => (await api("/v1/consumer/protections", { key })).status;

async function privateProtection(apiKey: string): Promise<string> {
  const res = await mint(apiKey, { content_hash: randomContentHash(), title: "Draft", visibility: "private" });
  expect(res.status, res.text).toBe(201);
  return res.body.protection_id as string;
}
/** The public read of a protection: 200 when public, 404 while private. */
const publicStatus = async (id: string) => (await api(`/v1/protections/${id}`)).status;

async function activeKeys(apiKey: string) {
  const res = await api("/v1/api-keys", { key: apiKey });
  expect(res.status, res.text).toBe(200);
  return (res.body as { name: string; prefix: string; status: string; created_at: string }[]).filter((k) => k.status === "ACTIVE");
}

// ---- mail ----

const text = (m: ParsedMail) => String(m.text ?? "");
const resetMailsTo = async (email: string) => (await mailsTo(email)).filter(isResetMail);
const withSubject = async (email: string, subject: string | RegExp) =>
  (await mailsTo(email)).filter((m) => (typeof subject === "string" ? m.subject === subject : subject.test(m.subject ?? "")));
/** The new-key notices to `email` that name the key `name`. */
const keyNotices = async (email: string, name: string) =>
  (await withSubject(email, KEY_NOTICE_SUBJECT)).filter((m) => text(m).includes(name));
/** Security notices: everything to `email` but reset links and new-key notices. */
const securityNotices = async (email: string) =>
  (await mailsTo(email)).filter((m) => !isResetMail(m) && !KEY_NOTICE_SUBJECT.test(m.subject ?? ""));

/** Waits (up to `ms`) until `read` finds at least `count` messages; returns them. */
async function waitFor(read: () => Promise<ParsedMail[]>, count: number, what: string, ms = 15_000): Promise<ParsedMail[]> {
  const end = Date.now() + ms;
  for (;;) {
    const found = await read();
    if (found.length >= count) return found;
    if (Date.now() > end) throw new Error(`${what}: ${found.length} of ${count} messages arrived within ${ms} ms`);
    await sleep(100);
  }
}

/**
 * Exactly `count`: waits for them, then waits out anything still on its way (whether a message is
 * sent is decided before the answer; only its delivery runs in the background), and counts again.
 */
async function exactly(read: () => Promise<ParsedMail[]>, count: number, what: string): Promise<ParsedMail[]> {
  if (count > 0) await waitFor(read, count, what);
  await sleep(1500);
  const found = await read();
  expect(found.length, `${what}: ${found.map((m) => m.subject).join(" | ")}`).toBe(count);
  return found;
}

/** Whether a text names a moment between `start` and `end` in UTC ("2026-11-29 05:18 UTC", or ISO with Z). */
function namesUtcTimeBetween(body: string, start: Date, end: Date): boolean {
  for (let t = Math.floor(start.getTime() / 60_000) * 60_000; t <= end.getTime(); t += 60_000) {
    const [day, hm] = new Date(t).toISOString().slice(0, 16).split("T");
    if (new RegExp(`${day}[ T]${hm}(:\\d{2}(\\.\\d+)?)?\\s*(UTC|Z)`).test(body)) return true;
  }
  return false;
}

// ---- the database (the suite's DATABASE_URL; `?` placeholders) ----

async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  const url = process.env.DATABASE_URL ?? "";
  if (url.startsWith("file:")) {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(url.slice("file:".length), { timeout: 5000 });
    try {
      const statement = db.prepare(query);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        query.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  } finally {
    await client.end();
  }
}

type LinkRow = { id: string; user_id: string | null; used_at: unknown };
const resetRows = () => sql<LinkRow>("SELECT id, user_id, used_at FROM email_tokens WHERE purpose = 'reset_password'");
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

// =====================================================================================================

describe("1. POST /v1/api-keys: a session gives the password again; every new key is announced by mail", () => {
  it("from a session, no password is 422 at /password and a wrong one 403 wrong_password at /password; neither makes a key or a notice", async () => {
    const account = await seedConsumer();
    const session = await loggedIn(account.email, account.password);
    const before = await activeKeys(account.apiKey);
    const [bare, wrong] = [uniqueName("bare"), uniqueName("wrong")];

    const missing = await createKeyBySession(session, { name: bare });
    expectProblem(missing, 422, "validation_failed");
    expect(missing.body.errors[0].pointer).toBe("/password");

    const refused = await createKeyBySession(session, { name: wrong, password: "not the password" });
    expectProblem(refused, 403, "wrong_password");
    expect(refused.body.errors[0].pointer).toBe("/password");

    expect(await activeKeys(account.apiKey)).toEqual(before);
    await sleep(1500);
    expect([...(await keyNotices(account.email, bare)), ...(await keyNotices(account.email, wrong))]).toHaveLength(0);
  });

  it("from a session with the right password: 201, the key works, and a notice names the key, its prefix, the time in UTC, the client address and the browser", async () => {
    const account = await seedConsumer();
    const session = await loggedIn(account.email, account.password);
    const client = newClient();
    const browser = `RecoveryTest/${randomUUID()} (a browser of its own)`;
    const name = uniqueName("laptop");
    const start = new Date();
    const res = await createKeyBySession(
      session,
      { name, password: account.password },
      { "x-forwarded-for": client, "user-agent": browser },
    );
    const end = new Date();
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name, status: "ACTIVE", scopes: ["protections:read"] });
    expect(await consumerKeyStatus(res.body.key)).toBe(200);

    const [notice] = await exactly(() => keyNotices(account.email, name), 1, "the new-key notice");
    expect(notice!.subject).toBe(NEW_KEY_SUBJECT);
    expect(recipients(notice!)).toEqual([account.email.toLowerCase()]);
    const body = text(notice!);
    expect(body).toContain(name);
    expect(body).toContain(res.body.prefix);
    expect(body).toContain(client);
    expect(body).toContain(browser);
    expect(namesUtcTimeBetween(body, start, end), body).toBe(true);
    // The secret itself is never mailed.
    expect(body).not.toContain(res.body.key);
    expect(String(notice!.html ?? "")).not.toContain(res.body.key);
  });

  it("the dashboard's apiKeys.create (tRPC, the session cookie) asks the same: no password and a wrong one make nothing, the right one makes the key", async () => {
    const account = await seedConsumer();
    const session = await loggedIn(account.email, account.password);
    const name = uniqueName("dashboard");
    const input = { name, scopes: ["protections:read"] };

    const bare = await trpc("apiKeys.create", input, cookieFromOwnPage(session));
    expect(bare.status, bare.text).not.toBe(200);
    expect(Object.keys(bare.body.error.data.fieldErrors ?? {})).toContain("password");
    const wrong = await trpc("apiKeys.create", { ...input, password: "not the password" }, cookieFromOwnPage(session));
    expect({ status: wrong.status, code: wrong.body?.error?.data?.appCode }, wrong.text).toEqual({ status: 403, code: "wrong_password" });
    expect((await activeKeys(account.apiKey)).map((k) => k.name)).not.toContain(name);

    const ok = await trpc("apiKeys.create", { ...input, password: account.password }, cookieFromOwnPage(session));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.result.data).toMatchObject({ name, status: "ACTIVE" });
    expect((await activeKeys(account.apiKey)).map((k) => k.name)).toContain(name);
    await exactly(() => keyNotices(account.email, name), 1, "the new-key notice");
  });

  it("an API key with api_keys:write needs no password, and one sent (even a wrong one) is ignored; each key is announced", async () => {
    const account = await seedConsumer();
    const [plain, withWrong] = [uniqueName("ci"), uniqueName("ci-wrong")];
    const made = await api("/v1/api-keys", { key: account.apiKey, json: { name: plain, scopes: ["protections:read"] } });
    expect(made.status, made.text).toBe(201);
    const ignored = await api("/v1/api-keys", {
      key: account.apiKey,
      json: { name: withWrong, scopes: ["protections:read"], password: "not the password" },
    });
    expect(ignored.status, ignored.text).toBe(201);
    for (const [name, key] of [
      [plain, made.body],
      [withWrong, ignored.body],
    ] as const) {
      expect(await consumerKeyStatus(key.key)).toBe(200);
      const [notice] = await exactly(() => keyNotices(account.email, name), 1, `the notice of ${name}`);
      expect(text(notice!)).toContain(key.prefix);
    }
  });

  it("an organisation's new key is announced to its owner, every time: past every mail budget, a burst in a digest, without spending the owner's security notices", async () => {
    const org = await seedOrg({ owner: true });
    // 12: more than any budget per address and hour (sign-up mail 5, reset links 3 + 3, security notices 10).
    const names = Array.from({ length: 12 }, (_, i) => uniqueName(`org-key-${i}`));
    for (const [i, name] of names.entries()) {
      const res = await api("/v1/api-keys", { key: org.apiKey, json: { name, scopes: ["issuers:read"] }, instance: at(i) });
      expect(res.status, res.text).toBe(201);
    }
    // Every key is named in exactly one notice: the first at once, the burst after it in digests.
    const covering = async () => {
      const mails = (await withSubject(org.email, KEY_NOTICE_SUBJECT)).filter((m) => names.some((n) => text(m).includes(n)));
      return names.every((n) => mails.some((m) => text(m).includes(n))) ? mails : [];
    };
    const notices = await waitFor(covering, 1, "the owner's new-key notices, every key named");
    for (const name of names)
      expect(
        notices.filter((m) => text(m).includes(name)),
        name,
      ).toHaveLength(1);
    for (const m of notices) expect(recipients(m)).toEqual([org.email.toLowerCase()]);
    // The first key is mailed at once, alone. Each instance keeps its own window, so on two the
    // other's first key is a single notice too, and either may arrive first.
    const single = notices.filter((m) => m.subject === NEW_KEY_SUBJECT);
    expect(single.map((m) => text(m).includes(names[0]!))).toContain(true);
    // A burst is not a mail a key (on two instances, at most a first notice and a digest or two each).
    expect(notices.length).toBeLessThan(names.length);

    // The owner's session must give the password too, as a consumer's does.
    const session = await loggedIn(org.email, org.password);
    const bare = await createKeyBySession(session, { name: uniqueName("owner-bare"), scopes: ["issuers:read"] });
    expectProblem(bare, 422, "validation_failed");
    expect(bare.body.errors[0].pointer).toBe("/password");

    // The security notices' budget is whole: a password change is still announced.
    const changed = await changePassword(session, { password: org.password, new_password: "the owner's new password" });
    expect(changed.status, changed.text).toBe(200);
    await exactly(() => withSubject(org.email, PASSWORD_CHANGED_SUBJECT), 1, "the password-changed notice");
  });

  it("wrong current passwords are counted per account, shared by key creation, making public, password and e-mail change and deletion: past 5, 429 even for the right one", async () => {
    const account = await seedConsumer();
    const protection = await privateProtection(account.apiKey);
    const session = await loggedIn(account.email, account.password);
    const wrong = "not the password";
    const refusals = [
      await createKeyBySession(session, { name: uniqueName("guess"), password: wrong }, {}, at(0)),
      await setVisibility(protection, { session }, { visibility: "public", password: wrong }, at(1)),
      await changePassword(session, { password: wrong, new_password: "whatever password" }, {}, at(2)),
      await changeEmail(session, newEmail(), wrong, at(3)),
      await deleteAccount(session, wrong, at(4)),
    ];
    for (const res of refusals) expectProblem(res, 403, "wrong_password");

    const keyAttempt = await createKeyBySession(session, { name: uniqueName("right"), password: account.password }, {}, at(5));
    expectProblem(keyAttempt, 429, "too_many_attempts");
    expect(Number(keyAttempt.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(keyAttempt.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    expectProblem(
      await setVisibility(protection, { session }, { visibility: "public", password: account.password }, at(6)),
      429,
      "too_many_attempts",
    );

    // Nothing was made, nothing published.
    expect((await activeKeys(account.apiKey)).map((k) => k.name)).toEqual(["default"]);
    expect(await publicStatus(protection)).toBe(404);
  });
});

describe("2. PATCH /v1/consumer/protections/{id}: from a session, making a private protection public takes the password", () => {
  it("private to public from a session: no password is 422 at /password, a wrong one 403 at /password, and it stays private; the right one publishes it", async () => {
    const account = await seedConsumer();
    const id = await privateProtection(account.apiKey);
    const session = await loggedIn(account.email, account.password);

    const missing = await setVisibility(id, { session }, { visibility: "public" });
    expectProblem(missing, 422, "validation_failed");
    expect(missing.body.errors[0].pointer).toBe("/password");
    const wrong = await setVisibility(id, { session }, { visibility: "public", password: "not the password" });
    expectProblem(wrong, 403, "wrong_password");
    expect(wrong.body.errors[0].pointer).toBe("/password");
    expect(await publicStatus(id)).toBe(404);

    const made = await setVisibility(id, { session }, { visibility: "public", password: account.password });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ protection_id: id, visibility: "public" });
    expect(await publicStatus(id)).toBe(200);
  });

  it("from a session, public to public and making private need no password", async () => {
    const account = await seedConsumer();
    const session = await loggedIn(account.email, account.password);
    const res = await mint(account.apiKey, { content_hash: randomContentHash(), visibility: "public" });
    expect(res.status, res.text).toBe(201);
    const id = res.body.protection_id as string;

    const again = await setVisibility(id, { session }, { visibility: "public" });
    expect(again.status, again.text).toBe(200);
    expect(again.body.visibility).toBe("public");
    const hidden = await setVisibility(id, { session }, { visibility: "private" });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.visibility).toBe("private");
    expect(await publicStatus(id)).toBe(404);
    const stillPrivate = await setVisibility(id, { session }, { visibility: "private" });
    expect(stillPrivate.status, stillPrivate.text).toBe(200);
    // Back to public (it is private now): the password again.
    expectProblem(await setVisibility(id, { session }, { visibility: "public" }), 422, "validation_failed");
  });

  it("an API key with protections:write publishes a private protection without a password", async () => {
    const account = await seedConsumer();
    const id = await privateProtection(account.apiKey);
    const made = await setVisibility(id, { key: account.apiKey }, { visibility: "public" });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ protection_id: id, visibility: "public" });
    expect(await publicStatus(id)).toBe(200);
  });

  it("the dashboard's consumer.setVisibility (tRPC, the session cookie) asks the same", async () => {
    const account = await seedConsumer();
    const id = await privateProtection(account.apiKey);
    const session = await loggedIn(account.email, account.password);
    const bare = await trpc("consumer.setVisibility", { id, visibility: "public" }, cookieFromOwnPage(session));
    expect(bare.status, bare.text).not.toBe(200);
    expect(Object.keys(bare.body.error.data.fieldErrors ?? {})).toContain("password");
    const wrong = await trpc("consumer.setVisibility", { id, visibility: "public", password: "nope" }, cookieFromOwnPage(session));
    expect({ status: wrong.status, code: wrong.body?.error?.data?.appCode }, wrong.text).toEqual({ status: 403, code: "wrong_password" });
    expect(await publicStatus(id)).toBe(404);
    const ok = await trpc("consumer.setVisibility", { id, visibility: "public", password: account.password }, cookieFromOwnPage(session));
    expect(ok.status, ok.text).toBe(200);
    expect(await publicStatus(id)).toBe(200);
  });
});

describe("3. Password reset ends every session and revokes every API key; its link shows the keys first", () => {
  it("the reset mail says that a reset ends every session and revokes every API key", async () => {
    const account = await seedConsumer();
    await requestReset(account.email);
    const [mail] = await exactly(() => resetMailsTo(account.email), 1, "the reset link");
    expect(recipients(mail!)).toEqual([account.email.toLowerCase()]);
    const { link, token } = resetLink(mail!);
    expect(link).toBe(`${baseUrl}/reset-password?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(text(mail!)).toMatch(/every session/i);
    expect(text(mail!)).toMatch(/every API key/i);
    expect(String(mail!.html ?? "")).toContain(link);
  });

  it("confirming answers how many sessions it ended and keys it revoked, and every one of them is then 401", async () => {
    const account = await seedConsumer(); // holds one key, "default"
    const extra = await createKey(account.apiKey, ["protections:read"], { name: uniqueName("extra") });
    const revokedBefore = await createKey(account.apiKey, ["protections:read"], { name: uniqueName("old") });
    expect((await api(`/v1/api-keys/${revokedBefore.id}/revoke`, { key: account.apiKey, method: "POST" })).status).toBe(200);
    const sessions = [await loggedIn(account.email, account.password), await loggedIn(account.email, account.password)];
    const endedBefore = await loggedIn(account.email, account.password);
    expect((await api("/v1/consumer/logout", { method: "POST", headers: bearer(endedBefore) })).status).toBe(200);

    await requestReset(account.email);
    const { token } = resetLink((await exactly(() => resetMailsTo(account.email), 1, "the reset link"))[0]!);
    const done = await confirmReset(token, "a brand new password");
    expect(done.status, done.text).toBe(200);
    // Counted: the live ones only (the session ended and the key revoked before are not).
    expect(done.body).toEqual({ status: "password_reset", email: account.email, sessions_ended: 2, api_keys_revoked: 2 });

    for (const s of sessions) expect(await sessionStatus(s)).toBe(401);
    for (const key of [account.apiKey, extra.key]) expectProblem(await api("/v1/consumer/protections", { key }), 401, "invalid_api_key");
    expectProblem(await login(account.email, account.password), 401, "invalid_credentials");
    expect((await login(account.email, "a brand new password")).status).toBe(200);
    expectProblem(await confirmReset(token, "yet another password"), 400, "invalid_token");
  });

  it("an organisation owner's reset revokes the organisation's keys and ends the owner's sessions", async () => {
    const org = await seedOrg({ owner: true }); // its first key: "bootstrap"
    const extraName = uniqueName("org-extra");
    const extra = await createKey(org.apiKey, ["issuers:read"], { name: extraName });
    const session = await loggedIn(org.email, org.password);
    await requestReset(org.email);
    const { token } = resetLink((await exactly(() => resetMailsTo(org.email), 1, "the reset link"))[0]!);

    const listed = await resetKeys(token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((k: { name: string }) => k.name).sort()).toEqual(["bootstrap", extraName].sort());
    expect(listed.body.total).toBe(2);

    const done = await confirmReset(token, "the owner's new password");
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ status: "password_reset", email: org.email, sessions_ended: 1, api_keys_revoked: 2 });
    expect(await sessionStatus(session)).toBe(401);
    for (const key of [org.apiKey, extra.key]) expectProblem(await api("/v1/issuers", { key }), 401, "invalid_api_key");
  });

  it("POST /v1/consumer/password-reset/keys lists the active keys the reset would revoke, and uses nothing up", async () => {
    const account = await seedConsumer();
    const extra = await createKey(account.apiKey, ["protections:read"], { name: uniqueName("listed") });
    const revokedName = uniqueName("revoked");
    const revoked = await createKey(account.apiKey, ["protections:read"], { name: revokedName });
    expect((await api(`/v1/api-keys/${revoked.id}/revoke`, { key: account.apiKey, method: "POST" })).status).toBe(200);
    const active = await activeKeys(account.apiKey);
    expect(active).toHaveLength(2);

    await requestReset(account.email);
    const { token } = resetLink((await exactly(() => resetMailsTo(account.email), 1, "the reset link"))[0]!);
    const first = await resetKeys(token);
    expect(first.status, first.text).toBe(200);
    expect(first.body.total).toBe(2);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...first.body.items].sort(byName)).toEqual(
      active.map(({ name, prefix, created_at }) => ({ name, prefix, created_at })).sort(byName),
    );
    expect(first.body.items.map((k: { name: string }) => k.name)).not.toContain(revokedName);
    expect(first.body.items.map((k: { prefix: string }) => k.prefix)).toContain(extra.prefix);
    // Nothing secret: no key's secret, no id.
    expect(first.text).not.toContain(extra.key);
    for (const item of first.body.items) expect(Object.keys(item).sort()).toEqual(["created_at", "name", "prefix"]);

    // Asked again, the same answer: the link is not used up, and the keys still work.
    const second = await resetKeys(token);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await consumerKeyStatus(extra.key)).toBe(200);

    // The link still resets, revoking exactly what was listed; then it lists nothing.
    const done = await confirmReset(token, "a brand new password");
    expect(done.status, done.text).toBe(200);
    expect(done.body.api_keys_revoked).toBe(first.body.total);
    expectProblem(await resetKeys(token), 400, "invalid_token");
  });

  it("the keys listing answers 400 invalid_token for anything but a live reset link", async () => {
    const account = await seedConsumer();
    // A reset link voided by a newer one, each delivered before the next is asked for.
    await requestReset(account.email);
    await exactly(() => resetMailsTo(account.email), 1, "the first reset link");
    await requestReset(account.email);
    const [older, newer] = (await exactly(() => resetMailsTo(account.email), 2, "the second reset link")).map((m) => resetLink(m).token);
    // A sign-up's verification link: a live link, of another kind.
    const stranger = newEmail();
    expect((await signUp(stranger, "a sign-up password")).status).toBe(202);
    const verification = verificationLink((await exactly(() => mailsTo(stranger), 1, "the sign-up link"))[0]!).token;

    const cases: [string, string][] = [
      ["malformed", "short"],
      ["unknown", Buffer.alloc(32, 9).toString("base64url")],
      ["a verification link", verification],
    ];
    for (const [what, token] of cases) {
      const res = await resetKeys(token);
      expect(res.status, what).toBe(400);
      expectProblem(res, 400, "invalid_token");
    }
    // A newer link leaves the older working (a stranger's request must not void the owner's link).
    expect((await resetKeys(older!)).status).toBe(200);
    // An expired link (its expiry set back to its creation).
    const live = await resetKeys(newer!);
    expect(live.status, live.text).toBe(200);
    await sql("UPDATE email_tokens SET expires_at = created_at WHERE token_hash = ?", [hashOf(newer!)]);
    expectProblem(await resetKeys(newer!), 400, "invalid_token");

    // Not a token at all: the usual validation.
    const missing = await api("/v1/consumer/password-reset/keys", { json: {} });
    expectProblem(missing, 422, "validation_failed");
    expect(missing.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/token"]);
  });

  it("the dashboard's consumerAuth.resetKeys (a tRPC mutation) answers what the REST route does", async () => {
    const account = await seedConsumer();
    await requestReset(account.email);
    const { token } = resetLink((await exactly(() => resetMailsTo(account.email), 1, "the reset link"))[0]!);
    const rest = await resetKeys(token);
    expect(rest.status, rest.text).toBe(200);
    const viaTrpc = await trpc("consumerAuth.resetKeys", { token });
    expect(viaTrpc.status, viaTrpc.text).toBe(200);
    expect(viaTrpc.body.result.data).toEqual(rest.body);
    const bad = await trpc("consumerAuth.resetKeys", { token: Buffer.alloc(32, 3).toString("base64url") });
    expect({ status: bad.status, code: bad.body?.error?.data?.appCode }).toEqual({ status: 400, code: "invalid_token" });
    // A mutation: not served as a query (GET).
    const asQuery = await api(`/api/trpc/consumerAuth.resetKeys?input=${encodeURIComponent(JSON.stringify({ token }))}`);
    expect(asQuery.status, asQuery.text).not.toBe(200);
    // Still usable.
    expect((await confirmReset(token, "a brand new password")).status).toBe(200);
  });
});

describe("4. POST /v1/consumer/account/password: ends the other sessions, revokes the keys if asked, and mails a notice", () => {
  it("without revoke_api_keys: ends every other session, keeps every key, answers the counts, and mails the notice", async () => {
    const account = await seedConsumer();
    const here = await loggedIn(account.email, account.password);
    const others = [await loggedIn(account.email, account.password), await loggedIn(account.email, account.password)];
    const newPassword = `changed-${randomUUID()}`;
    const res = await changePassword(here, { password: account.password, new_password: newPassword });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "password_changed", sessions_ended: 2, api_keys_revoked: 0 });
    expect(await sessionStatus(here)).toBe(200);
    for (const s of others) expect(await sessionStatus(s)).toBe(401);
    expect(await consumerKeyStatus(account.apiKey)).toBe(200);

    const [notice] = await exactly(() => withSubject(account.email, PASSWORD_CHANGED_SUBJECT), 1, "the password-changed notice");
    expect(recipients(notice!)).toEqual([account.email.toLowerCase()]);
    expect(text(notice!)).not.toContain(newPassword);
    expect((await login(account.email, newPassword)).status).toBe(200);
  });

  it("with revoke_api_keys true: also revokes every active key, and says how many", async () => {
    const account = await seedConsumer();
    const extra = await createKey(account.apiKey, ["protections:read"], { name: uniqueName("leaked") });
    const here = await loggedIn(account.email, account.password);
    const other = await loggedIn(account.email, account.password);
    const res = await changePassword(here, { password: account.password, new_password: "changed password!", revoke_api_keys: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "password_changed", sessions_ended: 1, api_keys_revoked: 2 });
    for (const key of [account.apiKey, extra.key]) expectProblem(await api("/v1/consumer/protections", { key }), 401, "invalid_api_key");
    expect(await sessionStatus(here)).toBe(200);
    expect(await sessionStatus(other)).toBe(401);
    await exactly(() => withSubject(account.email, PASSWORD_CHANGED_SUBJECT), 1, "the password-changed notice");
    // The session that asked goes on: it makes a new key with the new password.
    const fresh = await createKeyBySession(here, { name: uniqueName("fresh"), password: "changed password!" });
    expect(fresh.status, fresh.text).toBe(201);
  });

  it("revoke_api_keys false is the default's answer; anything but a boolean is 422 at /revoke_api_keys", async () => {
    const account = await seedConsumer();
    const here = await loggedIn(account.email, account.password);
    const invalid = await changePassword(here, { password: account.password, new_password: "changed password!", revoke_api_keys: "yes" });
    expectProblem(invalid, 422, "validation_failed");
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/revoke_api_keys"]);
    const res = await changePassword(here, { password: account.password, new_password: "changed password!", revoke_api_keys: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "password_changed", sessions_ended: 0, api_keys_revoked: 0 });
    expect(await consumerKeyStatus(account.apiKey)).toBe(200);
  });
});

describe("5. Mail budgets per target address and hour", () => {
  it("sign-up mail: 5 an hour to an address, counting sign-up links, resends and the e-mail change link sent to it; beyond, nothing and the same answer", async () => {
    const target = newEmail();
    const mover = await seedConsumer();
    const session = await loggedIn(mover.email, mover.password);
    // 1: an e-mail change link to the target.
    const asked = await changeEmail(session, target, mover.password);
    expect(asked.status, asked.text).toBe(202);
    await waitFor(() => mailsTo(target), 1, "the e-mail change link");
    // 2-5: sign-ups of the target, from strangers.
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 4; i++) answers.push(await signUp(target, "a sign-up password", newClient(), at(i)));
    await waitFor(() => mailsTo(target), 5, "the sign-up links");
    // Beyond: a sign-up, a resend and another e-mail change send nothing, and answer the same.
    answers.push(await signUp(target, "a sign-up password", newClient(), at(4)));
    const resend = await api("/v1/consumer/resend-verification", { json: { email: target }, headers: from(), instance: at(5) });
    const movedAgain = await changeEmail(session, target, mover.password, at(6));
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: "verification_sent", email: target });
    }
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ status: "verification_sent", email: target });
    expect(movedAgain.status).toBe(202);
    expect(movedAgain.body).toEqual(asked.body);
    const mails = await exactly(() => mailsTo(target), 5, "mail to the target");
    for (const m of mails) expect(text(m)).toMatch(/\/verify-email\?token=/);
  });

  it("'already registered' notices are sign-up mail: strangers' sign-ups of an owner's address spend neither its reset links nor its security notices", async () => {
    const account = await seedConsumer();
    const fresh = await signUp(newEmail(), "a stranger's password");
    for (let i = 0; i < 7; i++) {
      const res = await signUp(account.email, "a stranger's password", newClient(), at(i));
      expect(res.status).toBe(202);
      expect(Object.keys(res.body)).toEqual(Object.keys(fresh.body));
    }
    await exactly(() => withSubject(account.email, /already have/i), 5, "the 'already registered' notices");
    // A stranger's reset request still gets the owner a link…
    await requestReset(account.email, newClient(), at(1));
    await exactly(() => resetMailsTo(account.email), 1, "the reset link");
    // …and a password change is still announced.
    const session = await loggedIn(account.email, account.password);
    expect((await changePassword(session, { password: account.password, new_password: "changed password!" })).status).toBe(200);
    await exactly(() => withSubject(account.email, PASSWORD_CHANGED_SUBJECT), 1, "the password-changed notice");
  });

  it("reset links: 3 an hour for anyone, then 3 more held for a client address that has logged in to the account before (an ended session counts)", async () => {
    const account = await seedConsumer();
    const known = newClient();
    const earlier = await loggedIn(account.email, account.password, known);
    expect((await api("/v1/consumer/logout", { method: "POST", headers: bearer(earlier) })).status).toBe(200);
    // A client address that logged in to another account only is a stranger here.
    const elsewhere = newClient();
    const other = await seedConsumer();
    await loggedIn(other.email, other.password, elsewhere);

    // Strangers (each from a client address of its own) ask 6 times: 3 links, then nothing.
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 6; i++) answers.push(await requestReset(account.email, newClient(), at(i)));
    await exactly(() => resetMailsTo(account.email), 3, "strangers' reset links");
    await requestReset(account.email, elsewhere, at(6));
    await exactly(() => resetMailsTo(account.email), 3, "reset links after another account's client asked");

    // The owner's client address: 3 more, then nothing; every answer the same.
    for (let i = 0; i < 4; i++) answers.push(await requestReset(account.email, known, at(i)));
    const links = await exactly(() => resetMailsTo(account.email), 6, "reset links with the owner's held share");
    for (const res of answers) expect(res.headers.get("content-type")).toBe(answers[0]!.headers.get("content-type"));
    // The last link mailed works: the requests that sent nothing did not void it.
    const done = await confirmReset(resetLink(links.at(-1)!).token, "the owner's new password");
    expect(done.status, done.text).toBe(200);
  });

  it("security notices: 10 an hour (password changed, e-mail change notice, account deleted); beyond, nothing, while reset links still come", async () => {
    const account = await seedConsumer();
    const session = await loggedIn(account.email, account.password);
    let password = account.password;
    const change = async (i: number) => {
      const next = `password number ${i}`;
      const res = await changePassword(session, { password, new_password: next }, {}, at(i));
      expect(res.status, res.text).toBe(200);
      password = next;
    };
    for (let i = 0; i < 9; i++) await change(i);
    const moving = newEmail();
    expect((await changeEmail(session, moving, password, at(9))).status).toBe(202);
    const notices = await exactly(() => securityNotices(account.email), 10, "security notices");
    expect(notices.filter((m) => m.subject === PASSWORD_CHANGED_SUBJECT)).toHaveLength(9);
    expect(notices.filter((m) => text(m).includes(moving))).toHaveLength(1);

    // Beyond the budget: an 11th change is made but not announced.
    await change(10);
    await exactly(() => securityNotices(account.email), 10, "security notices past the budget");
    // The reset links' budget is a separate one.
    await requestReset(account.email);
    await exactly(() => resetMailsTo(account.email), 1, "the reset link");
    // And the deletion, past the budget, goes through without its goodbye.
    const deleted = await deleteAccount(session, password);
    expect(deleted.status, deleted.text).toBe(200);
    const after = await exactly(() => securityNotices(account.email), 10, "security notices after the deletion");
    expect(after.filter((m) => /deleted/i.test(m.subject ?? ""))).toHaveLength(0);
  });

  it("per client address, still 10 reset requests and 10 resends an hour: the 11th is 429 rate_limited with Retry-After", async () => {
    for (const path of ["/v1/consumer/password-reset", "/v1/consumer/resend-verification"]) {
      const client = newClient();
      for (let i = 0; i < 10; i++) {
        const res = await api(path, { json: { email: newEmail() }, headers: from(client), instance: at(i) });
        expect(res.status, `${path} #${i + 1}: ${res.text}`).toBe(202);
      }
      const refused = await api(path, { json: { email: newEmail() }, headers: from(client), instance: at(10) });
      expectProblem(refused, 429, "rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another client is not affected.
      expect((await api(path, { json: { email: newEmail() }, headers: from() })).status).toBe(202);
    }
  });
});

describe("6. No enumeration", () => {
  it("the password of a pending sign-up logs in no more than a wrong one: the very same 401 invalid_credentials", async () => {
    const email = newEmail();
    expect((await signUp(email, "the pending password")).status).toBe(202);
    const pending = await login(email, "the pending password");
    const wrong = await login(email, "a wrong password");
    expectProblem(pending, 401, "invalid_credentials");
    expectSameProblem(pending, wrong);
    expect(pending.headers.get("set-cookie")).toBeNull();
  });

  it("the right password of an unverified account gets the same 401 invalid_credentials as a wrong one", async () => {
    const account = await seedConsumer({ verified: false });
    const right = await login(account.email, account.password);
    const wrong = await login(account.email, "a wrong password");
    expectProblem(right, 401, "invalid_credentials");
    expectSameProblem(right, wrong);
    expect(right.headers.get("set-cookie")).toBeNull();
  });

  it("the web sign-in and the dashboard's tRPC login answer a pending sign-up's password, and an unverified account's, exactly as a wrong one", async () => {
    const email = newEmail();
    expect((await signUp(email, "the pending password")).status).toBe(202);
    const webSignIn = async (password: string, address = email) => {
      const csrf = await api("/api/auth/csrf");
      const cookie = (csrf.headers.get("set-cookie") ?? "").split(";")[0]!;
      const form = new URLSearchParams({
        csrfToken: csrf.body.csrfToken,
        email: address,
        password,
        callbackUrl: "/dashboard",
        json: "true",
      });
      return api("/api/auth/callback/credentials", {
        method: "POST",
        raw: form.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: baseUrl, ...from() },
      });
    };
    // The form works (a confirmed account's right password signs in), so the two refusals below are its own.
    const confirmed = await seedConsumer();
    const signedIn = await webSignIn(confirmed.password, confirmed.email);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.headers.get("set-cookie") ?? "").toMatch(/session-token=[^;]/);

    const pending = await webSignIn("the pending password");
    const wrong = await webSignIn("a wrong password");
    expect(wrong.text).toMatch(/error/i); // the form's refusal, not a sign-in
    expect(wrong.body).not.toEqual(signedIn.body);
    expect(pending.status, pending.text).toBe(wrong.status);
    expect(pending.headers.get("content-type")).toBe(wrong.headers.get("content-type"));
    expect(pending.body).toEqual(wrong.body);
    expect(pending.text).not.toMatch(/email_not_verified|verif/i);
    expect(pending.headers.get("set-cookie") ?? "").not.toMatch(/session-token=[^;]/);
    // So is an unverified account's right password.
    const unverified = await seedConsumer({ verified: false });
    const notYet = await webSignIn(unverified.password, unverified.email);
    expect(notYet.status, notYet.text).toBe(wrong.status);
    expect(notYet.body).toEqual(wrong.body);

    const viaTrpc = await trpc("consumerAuth.login", { email, password: "the pending password" }, from());
    expect({ status: viaTrpc.status, code: viaTrpc.body?.error?.data?.appCode }, viaTrpc.text).toEqual({
      status: 401,
      code: "invalid_credentials",
    });
  });

  it("the code email_not_verified is gone from the API's document", async () => {
    const doc = await api("/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.text).toContain("invalid_credentials");
    expect(doc.text).not.toContain("email_not_verified");
  });

  it("a reset asked for an address with no account answers the same and writes the same kind of row, born used", async () => {
    const account = await seedConsumer();
    const nobody = newEmail();
    const before = new Set((await resetRows()).map((r) => r.id));
    const known = await requestReset(account.email);
    const unknown = await requestReset(nobody);
    const added = (await resetRows()).filter((r) => !before.has(r.id));

    // The same answer but for the address it names.
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual({ ...known.body, email: nobody });
    const names = (res: ApiResponse) => [...res.headers.keys()].sort();
    expect(names(unknown)).toEqual(names(known));
    expect(unknown.headers.get("content-type")).toBe(known.headers.get("content-type"));

    // One row each: the account's live link, and one for no one, born used.
    expect(added, JSON.stringify(added)).toHaveLength(2);
    const mine = added.filter((r) => r.user_id === account.userId);
    const noOne = added.filter((r) => r.user_id === null);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.used_at).toBeNull();
    expect(noOne).toHaveLength(1);
    expect(noOne[0]!.used_at).not.toBeNull();
    await exactly(() => resetMailsTo(account.email), 1, "the account's reset link");
    await exactly(() => mailsTo(nobody), 0, "mail to an address with no account");
  });

  it("resets asked for an address with no account spend its reset budget: once it has an account, only the owner's held share is left", async () => {
    const email = newEmail();
    for (let i = 0; i < 3; i++) await requestReset(email, newClient(), at(i));
    // The address signs up and confirms (sign-up mail has a budget of its own).
    expect((await signUp(email, "the owner's password")).status).toBe(202);
    const { token } = verificationLink((await waitFor(() => mailsTo(email), 1, "the sign-up link"))[0]!);
    expect((await verify(token, "the owner's password")).status).toBe(200);

    // A stranger's reset request finds the shared budget spent…
    await requestReset(email, newClient(), at(3));
    await exactly(() => resetMailsTo(email), 0, "reset links to a budget spent before the account existed");
    // …the owner, from where they logged in, still gets a link.
    const home = newClient();
    await loggedIn(email, "the owner's password", home);
    await requestReset(email, home, at(4));
    await exactly(() => resetMailsTo(email), 1, "the owner's reset link");
  });
});

describe("7. Confirming an e-mail change ends every other session and voids every pending link", () => {
  it("the session that asked stays (though not the newest); the others end; a reset link mailed to the old address is void", async () => {
    const account = await seedConsumer();
    const asker = await loggedIn(account.email, account.password);
    const others = [await loggedIn(account.email, account.password), await loggedIn(account.email, account.password)];
    const next = newEmail();

    const asked = await changeEmail(asker, next, account.password);
    expect(asked.status, asked.text).toBe(202);
    // A reset link mailed to the old address while the change waits.
    await requestReset(account.email);
    const reset = resetLink((await exactly(() => resetMailsTo(account.email), 1, "the reset link"))[0]!).token;
    expect((await resetKeys(reset)).status).toBe(200); // live until the change is confirmed

    const link = verificationLink((await waitFor(() => mailsTo(next), 1, "the change link"))[0]!).token;
    const confirmed = await verify(link, account.password);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ status: "verified", email: next });

    expect(await sessionStatus(asker)).toBe(200);
    for (const s of others) expect(await sessionStatus(s)).toBe(401);
    expectProblem(await confirmReset(reset, "a stranger's new password"), 400, "invalid_token");
    expectProblem(await resetKeys(reset), 400, "invalid_token");
    // No link of the account is pending any more.
    const pending = await sql<{ n: unknown }>("SELECT COUNT(*) AS n FROM email_tokens WHERE user_id = ? AND used_at IS NULL", [
      account.userId,
    ]);
    expect(Number(pending[0]!.n)).toBe(0);
    // The account lives at its new address, with its password.
    expectProblem(await login(account.email, account.password), 401, "invalid_credentials");
    expect((await login(next, account.password)).status).toBe(200);
  });

  it("whichever session asked is the one that stays: here the middle one of three", async () => {
    const account = await seedConsumer();
    const older = await loggedIn(account.email, account.password);
    const asker = await loggedIn(account.email, account.password);
    const newer = await loggedIn(account.email, account.password);
    const next = newEmail();
    expect((await changeEmail(asker, next, account.password)).status).toBe(202);
    const link = verificationLink((await waitFor(() => mailsTo(next), 1, "the change link"))[0]!).token;
    const confirmed = await verify(link, account.password);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect([await sessionStatus(older), await sessionStatus(asker), await sessionStatus(newer)]).toEqual([401, 200, 401]);
  });
});
