// @hallmark-test db=sqlite,postgres lane=second-server
// Who owns an account: whoever controls its address. The pre-hijacking sequence, verification
// taking over what a stranger left, password reset and change, e-mail change, sessions and
// deletion, each over real HTTP with the mail caught by the suite's SMTP server.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, expectProblem, expectSameProblem, type ApiResponse } from "./helpers";
import { mailsTo, waitForMail } from "./mail";
import { seedConsumer } from "../accounts";

const newEmail = () => `owner-${randomUUID().slice(0, 12)}@example.com`;
/** A client address of its own per call, so the per-address budgets never meet across tests. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const from = (client = newClient()) => ({ "x-forwarded-for": client });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const signUp = (email: string, password: string, name: string, client?: string) =>
  api("/v1/consumer/signup", { json: { email, password, name }, headers: from(client) });
const login = (email: string, password: string) => api("/v1/consumer/login", { json: { email, password }, headers: from() });
/** Follows a link: a sign-up's takes the password chosen at that sign-up, an e-mail change's none. */
const verify = (token: string, password?: string) => api("/v1/consumer/verify-email", { json: { token, password } });

/** The token of the link of `kind` in a message's text (verify-email or reset-password). */
function linkToken(mail: { text?: string | false; subject?: string }, kind: "verify-email" | "reset-password"): string {
  const m = new RegExp(`/${kind}\\?token=([A-Za-z0-9_-]+)`).exec(String(mail.text ?? ""));
  if (!m) throw new Error(`no ${kind} link in: ${mail.subject}`);
  return m[1]!;
}

async function loggedIn(email: string, password: string): Promise<string> {
  const res = await login(email, password);
  expect(res.status, res.text).toBe(200);
  return res.body.session_token as string;
}

const stillWorks = async (token: string) => (await api("/v1/consumer/account", { headers: bearer(token) })).status;

describe("the address decides who owns the account", () => {
  it("pre-hijacking: a stranger's earlier sign-up leaves them nothing once the owner follows their own link", async () => {
    const victim = newEmail();
    const attackerPassword = "attacker's own password";
    const victimPassword = "the victim's password";
    expect((await signUp(victim, attackerPassword, "Mallory")).status).toBe(202);
    expect((await signUp(victim, victimPassword, "Victoria")).status).toBe(202);
    const [attackerMail, victimMail] = await waitForMail(victim, 2);
    // Mail sent at a stranger's request carries nothing the stranger typed.
    expect(attackerMail!.text).not.toContain("Mallory");
    expect(attackerMail!.subject).not.toContain("Mallory");

    const verified = await verify(linkToken(victimMail!, "verify-email"), victimPassword);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ status: "verified", email: victim });

    expectProblem(await login(victim, attackerPassword), 401, "invalid_credentials");
    const res = await login(victim, victimPassword);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.name).toBe("Victoria");
    // The stranger's link verifies nothing now.
    expectProblem(await verify(linkToken(attackerMail!, "verify-email"), attackerPassword), 400, "invalid_token");
    expectProblem(await login(victim, attackerPassword), 401, "invalid_credentials");
  });

  it("each link verifies the registration it was sent for, whichever came first", async () => {
    const email = newEmail();
    expect((await signUp(email, "first password!", "First")).status).toBe(202);
    expect((await signUp(email, "second password", "Second")).status).toBe(202);
    const [first, second] = await waitForMail(email, 2);
    expect((await verify(linkToken(first!, "verify-email"), "first password!")).status).toBe(200);
    const res = await login(email, "first password!");
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.name).toBe("First");
    expectProblem(await login(email, "second password"), 401, "invalid_credentials");
    expectProblem(await verify(linkToken(second!, "verify-email"), "second password"), 400, "invalid_token");
  });

  it("the owner following a stranger's link makes no account: a sign-up's link finishes only with the password chosen then", async () => {
    const victim = newEmail();
    const attackerPassword = "attacker's own password";
    expect((await signUp(victim, attackerPassword, "Mallory")).status).toBe(202);
    const link = linkToken((await waitForMail(victim)).at(-1)!, "verify-email");
    // The owner trusts a mail from us and opens it: without the stranger's password nothing happens.
    const bare = await verify(link);
    expectProblem(bare, 422, "validation_failed");
    expect(bare.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/password"]);
    const wrong = await verify(link, "the victim's own password");
    expectProblem(wrong, 403, "wrong_password");
    expect(wrong.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/password"]);
    // No account: the stranger's password logs in no more than a wrong one.
    expectProblem(await login(victim, attackerPassword), 401, "invalid_credentials");
    // Guessing is bounded per link: 5 wrong ones, then 429 even for the right one, and nothing is made.
    for (let i = 0; i < 4; i++) expectProblem(await verify(link, `guess ${i}`), 403, "wrong_password");
    const spent = await verify(link, attackerPassword);
    expectProblem(spent, 429, "too_many_attempts");
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThan(0);
    expectProblem(await login(victim, attackerPassword), 401, "invalid_credentials");
    // The owner signs up themselves: their link, with their password, makes the account.
    expect((await signUp(victim, "the victim's own password", "Victoria")).status).toBe(202);
    const own = linkToken((await waitForMail(victim, 2)).at(-1)!, "verify-email");
    expect((await verify(own, "the victim's own password")).status).toBe(200);
    expect((await login(victim, "the victim's own password")).status).toBe(200);
    expectProblem(await login(victim, attackerPassword), 401, "invalid_credentials");
  });

  it("a sign-up's link with the right password works after a wrong one", async () => {
    const email = newEmail();
    expect((await signUp(email, "my sign-up password", "Me")).status).toBe(202);
    const link = linkToken((await waitForMail(email)).at(-1)!, "verify-email");
    expectProblem(await verify(link, "a typo'd password"), 403, "wrong_password");
    expect((await verify(link, "my sign-up password")).status).toBe(200);
    expect((await login(email, "my sign-up password")).status).toBe(200);
  });

  it("a pending sign-up's own password gets the very same 401 as any other", async () => {
    const email = newEmail();
    expect((await signUp(email, "pending password", "P")).status).toBe(202);
    const own = await login(email, "pending password");
    expectProblem(own, 401, "invalid_credentials");
    expectSameProblem(own, await login(email, "another password"));
  });

  it("verifying an unverified account ends every session and key made before, and sets the registrant's password", async () => {
    const email = newEmail();
    const squatter = await seedConsumer({ email, password: "operator-made password", verified: false, name: "Squatter" });
    expect((await api("/v1/api-keys", { key: squatter.apiKey })).status).toBe(200);
    expect((await signUp(email, "the owner's password", "Owner")).status).toBe(202);
    const mail = (await waitForMail(email)).at(-1)!;
    expect((await verify(linkToken(mail, "verify-email"), "the owner's password")).status).toBe(200);
    expectProblem(await api("/v1/api-keys", { key: squatter.apiKey }), 401, "invalid_api_key");
    expectProblem(await login(email, "operator-made password"), 401, "invalid_credentials");
    const res = await login(email, "the owner's password");
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.name).toBe("Owner");
  });

  it("signing up with a verified address changes nothing, answers as for a new one, and mails the owner a notice", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: "the owner's password" });
    const taken = await signUp(email, "a stranger's password", "Mallory");
    const fresh = await signUp(newEmail(), "a stranger's password", "Mallory");
    expect(taken.status).toBe(202);
    expect(Object.keys(taken.body)).toEqual(Object.keys(fresh.body));
    const [notice] = await waitForMail(email);
    expect(notice!.subject).toMatch(/already have/i);
    expect(notice!.text).not.toMatch(/verify-email/);
    expect((await login(email, "the owner's password")).status).toBe(200);
    expectProblem(await login(email, "a stranger's password"), 401, "invalid_credentials");
  });
});

describe("forgotten and changed passwords", () => {
  it("a reset link sets a new password once, ends every session and revokes every key; other addresses get the same answer and no mail", async () => {
    const account = await seedConsumer();
    const before = await loggedIn(account.email, account.password);
    const asked = await api("/v1/consumer/password-reset", { json: { email: account.email }, headers: from() });
    const unknownEmail = newEmail();
    const unknown = await api("/v1/consumer/password-reset", { json: { email: unknownEmail }, headers: from() });
    expect(asked.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(Object.keys(unknown.body)).toEqual(Object.keys(asked.body));
    const token = linkToken((await waitForMail(account.email)).at(-1)!, "reset-password");

    const done = await api("/v1/consumer/password-reset/confirm", { json: { token, password: "a brand new password" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ status: "password_reset", email: account.email, sessions_ended: 1, api_keys_revoked: 1 });
    expect(await stillWorks(before)).toBe(401);
    expectProblem(await api("/v1/consumer/protections", { key: account.apiKey }), 401, "invalid_api_key");
    expectProblem(await login(account.email, account.password), 401, "invalid_credentials");
    expect((await login(account.email, "a brand new password")).status).toBe(200);
    expectProblem(await api("/v1/consumer/password-reset/confirm", { json: { token, password: "yet another one" } }), 400, "invalid_token");
    expect(await mailsTo(unknownEmail)).toHaveLength(0);
  });

  it("a newer reset link leaves the older working until one is used, which voids the other; malformed and unknown tokens are 400", async () => {
    const account = await seedConsumer();
    // One after the other, each mail delivered before the next is asked for: the outbox sends
    // concurrently, so two asked for at once may arrive in either order.
    for (let i = 1; i <= 2; i++) {
      await api("/v1/consumer/password-reset", { json: { email: account.email }, headers: from() });
      await waitForMail(account.email, i);
    }
    const [older, newer] = (await waitForMail(account.email, 2)).map((m) => linkToken(m, "reset-password"));
    // A stranger asking for a reset must not void the link the owner is about to follow: both work.
    expectProblem(
      await api("/v1/consumer/password-reset/confirm", { json: { token: "short", password: "new password 1" } }),
      400,
      "invalid_token",
    );
    expect((await api("/v1/consumer/password-reset/confirm", { json: { token: older, password: "new password 1" } })).status).toBe(200);
    // Used, one voids the others.
    expectProblem(
      await api("/v1/consumer/password-reset/confirm", { json: { token: newer, password: "new password 2" } }),
      400,
      "invalid_token",
    );
    expect((await login(account.email, "new password 1")).status).toBe(200);
  });

  it("changing the password needs the current one and ends every other session, not this one", async () => {
    const account = await seedConsumer();
    const here = await loggedIn(account.email, account.password);
    const elsewhere = await loggedIn(account.email, account.password);
    const wrong = await api("/v1/consumer/account/password", {
      json: { password: "not it", new_password: "changed password" },
      headers: bearer(here),
    });
    expectProblem(wrong, 403, "wrong_password");
    const res = await api("/v1/consumer/account/password", {
      json: { password: account.password, new_password: "changed password" },
      headers: bearer(here),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "password_changed", sessions_ended: 1, api_keys_revoked: 0 });
    expect(await stillWorks(here)).toBe(200);
    expect(await stillWorks(elsewhere)).toBe(401);
    expect((await login(account.email, "changed password")).status).toBe(200);
  });

  it("wrong current passwords are bounded per account (429 with Retry-After)", async () => {
    const account = await seedConsumer();
    const here = await loggedIn(account.email, account.password);
    const attempt = () =>
      api("/v1/consumer/account/password", { json: { password: "guess", new_password: "whatever pw" }, headers: bearer(here) });
    for (let i = 0; i < 5; i++) expectProblem(await attempt(), 403, "wrong_password");
    const res = await attempt();
    expectProblem(res, 429, "too_many_attempts");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("the account page's operations", () => {
  it("takes a session, never an API key", async () => {
    const account = await seedConsumer();
    for (const path of ["/v1/consumer/account", "/v1/consumer/sessions"]) {
      expectProblem(await api(path, { key: account.apiKey }), 403, "forbidden");
      expectProblem(await api(path), 401, "unauthenticated");
    }
    expectProblem(
      await api("/v1/consumer/account/delete", { key: account.apiKey, json: { password: account.password, confirm: "DELETE" } }),
      403,
      "forbidden",
    );
  });

  it("renames the account", async () => {
    const account = await seedConsumer();
    const token = await loggedIn(account.email, account.password);
    const res = await api("/v1/consumer/account", { method: "PATCH", json: { name: "  Grace Hopper " }, headers: bearer(token) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: account.email, name: "Grace Hopper", realm: "consumer", plan: "free" });
    expectProblem(
      await api("/v1/consumer/account", { method: "PATCH", json: { name: "" }, headers: bearer(token) }),
      422,
      "validation_failed",
    );
  });

  it("moves to a new address only when the new address confirms, with a notice to the old", async () => {
    const account = await seedConsumer();
    const token = await loggedIn(account.email, account.password);
    const next = newEmail();
    const res = await api("/v1/consumer/account/email", {
      json: { email: next, password: account.password },
      headers: { ...bearer(token), ...from() },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ status: "confirmation_sent", email: next });
    const [notice] = await waitForMail(account.email);
    expect(notice!.text).toContain(next);
    expect(notice!.text).not.toMatch(/verify-email/);
    // Nothing changes before the link is followed.
    expect((await login(account.email, account.password)).status).toBe(200);
    const link = linkToken((await waitForMail(next)).at(-1)!, "verify-email");
    // The link finishes with the account's password, like every confirmation link.
    expectProblem(await verify(link), 422, "validation_failed");
    expectProblem(await verify(link, "not the account's password"), 403, "wrong_password");
    expect((await verify(link, account.password)).body).toEqual({ status: "verified", email: next });
    expectProblem(await login(account.email, account.password), 401, "invalid_credentials");
    expect((await login(next, account.password)).status).toBe(200);
    expectProblem(await verify(link, account.password), 400, "invalid_token");
  });

  it("a stranger cannot move their account onto someone's address: the owner following the link without the stranger's password moves nothing", async () => {
    const stranger = await seedConsumer();
    const session = await loggedIn(stranger.email, stranger.password);
    const victim = newEmail();
    const asked = await api("/v1/consumer/account/email", {
      json: { email: victim, password: stranger.password },
      headers: { ...bearer(session), ...from() },
    });
    expect(asked.status, asked.text).toBe(202);
    const link = linkToken((await waitForMail(victim)).at(-1)!, "verify-email");
    expectProblem(await verify(link), 422, "validation_failed");
    expectProblem(await verify(link, "the victim's own password"), 403, "wrong_password");
    expectProblem(await login(victim, stranger.password), 401, "invalid_credentials");
    // The owner signs up and confirms; the stranger's pending change then has nowhere to go.
    expect((await signUp(victim, "the victim's own password", "Victoria")).status).toBe(202);
    const own = linkToken((await waitForMail(victim, 2)).at(-1)!, "verify-email");
    expect((await verify(own, "the victim's own password")).status).toBe(200);
    expectProblem(await verify(link, stranger.password), 400, "invalid_token");
    expect((await login(stranger.email, stranger.password)).status).toBe(200);
    expect((await login(victim, "the victim's own password")).body.user.name).toBe("Victoria");
  });

  it("an operator-made account's link, sent again on request, finishes with that account's password", async () => {
    const email = newEmail();
    await seedConsumer({ email, password: "operator-made password", verified: false });
    expect((await api("/v1/consumer/resend-verification", { json: { email }, headers: from() })).status).toBe(202);
    const link = linkToken((await waitForMail(email)).at(-1)!, "verify-email");
    expectProblem(await verify(link), 422, "validation_failed");
    expectProblem(await verify(link, "a stranger's guess"), 403, "wrong_password");
    expectProblem(await login(email, "operator-made password"), 401, "invalid_credentials");
    expect((await verify(link, "operator-made password")).body).toEqual({ status: "verified", email });
    expect((await login(email, "operator-made password")).status).toBe(200);
  });

  it("an e-mail change needs the current password, and a taken address gets no link", async () => {
    const account = await seedConsumer();
    const other = await seedConsumer();
    const token = await loggedIn(account.email, account.password);
    const wrong = await api("/v1/consumer/account/email", {
      json: { email: newEmail(), password: "nope" },
      headers: { ...bearer(token), ...from() },
    });
    expectProblem(wrong, 403, "wrong_password");
    const taken = await api("/v1/consumer/account/email", {
      json: { email: other.email, password: account.password },
      headers: { ...bearer(token), ...from() },
    });
    expect(taken.status).toBe(202);
    await waitForMail(account.email); // the notice to the old address
    expect(await mailsTo(other.email)).toHaveLength(0);
  });

  it("lists the live sessions, ends one, and ends all the others", async () => {
    const account = await seedConsumer();
    const here = await loggedIn(account.email, account.password);
    const second = await loggedIn(account.email, account.password);
    const third = await loggedIn(account.email, account.password);
    const list = await api("/v1/consumer/sessions", { headers: { ...bearer(here), "user-agent": "ignored on reads" } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const mine = list.body.items.find((s: { current: boolean }) => s.current);
    const others = list.body.items.filter((s: { current: boolean }) => !s.current);
    expect(others[0].client_address).toMatch(/^10\./);

    const end = await api(`/v1/consumer/sessions/${others[0].id}/end`, { method: "POST", headers: bearer(here) });
    expect(end.status, end.text).toBe(200);
    const alive = [await stillWorks(second), await stillWorks(third)].sort();
    expect(alive).toEqual([200, 401]);

    const strangers = await seedConsumer();
    const stranger = await loggedIn(strangers.email, strangers.password);
    expectProblem(await api(`/v1/consumer/sessions/${mine.id}/end`, { method: "POST", headers: bearer(stranger) }), 404, "not_found");
    expect(await stillWorks(here)).toBe(200);

    const all = await api("/v1/consumer/sessions/end-others", { method: "POST", headers: bearer(here) });
    expect(all.body).toEqual({ status: "ended", sessions_ended: 1 });
    expect([await stillWorks(second), await stillWorks(third)]).toEqual([401, 401]);
    expect(await stillWorks(here)).toBe(200);
  });
});

describe("deleting an account", () => {
  const remove = (token: string, body: Record<string, unknown>): Promise<ApiResponse> =>
    api("/v1/consumer/account/delete", { json: body, headers: bearer(token) });

  it("takes the current password and the word DELETE; then the person's data goes and the signed entries stay", async () => {
    const account = await seedConsumer({ name: "To Be Deleted" });
    const minted = await api("/v1/consumer/mint", {
      key: account.apiKey,
      json: { content_hash: randomUUID().replace(/-/g, "").repeat(2), title: "A private draft", visibility: "public" },
    });
    expect(minted.status, minted.text).toBe(201);
    const protection = minted.body.protection_id as string;
    expect((await api(`/v1/protections/${protection}`)).status).toBe(200);
    const token = await loggedIn(account.email, account.password);

    expectProblem(await remove(token, { password: account.password }), 422, "validation_failed");
    expectProblem(await remove(token, { password: "not it", confirm: "DELETE" }), 403, "wrong_password");
    const res = await remove(token, { password: account.password, confirm: "DELETE" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "deleted" });
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);

    expect(await stillWorks(token)).toBe(401);
    expectProblem(await api("/v1/api-keys", { key: account.apiKey }), 401, "invalid_api_key");
    expectProblem(await login(account.email, account.password), 401, "invalid_credentials");
    expect((await api(`/v1/protections/${protection}`)).status).toBe(404);
    expect((await api(`/v1/portfolios/${account.userId}`)).status).toBe(404);
    const [goodbye] = await waitForMail(account.email);
    expect(goodbye!.subject).toMatch(/deleted/i);
    // The address is free again.
    expect((await signUp(account.email, "a fresh start pw", "New")).status).toBe(202);
    expect((await waitForMail(account.email, 2)).at(-1)!.subject).toMatch(/confirm/i);
  });
});

describe("what sign-up and its mail may cost us", () => {
  it("sign-ups are bounded per client address (429 with Retry-After) before any work", async () => {
    const client = newClient();
    for (let i = 0; i < 10; i++) expect((await signUp(newEmail(), "a password!", "N", client)).status).toBe(202);
    const refused = await signUp(newEmail(), "a password!", "N", client);
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await signUp(newEmail(), "a password!", "N")).status).toBe(202);
  });

  it("sign-up mail to one address is bounded (5 an hour), whoever asks, and the answer stays the same", async () => {
    const email = newEmail();
    for (let i = 0; i < 7; i++) {
      const res = await api("/v1/consumer/signup", { json: { email, password: "a password!", name: "N" }, headers: from() });
      expect(res.status).toBe(202);
    }
    await waitForMail(email, 5);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailsTo(email)).toHaveLength(5);
  });
});
