// Who owns an account, as rules run against each database (account-rules.test.ts on a SQLite
// file, account-rules.pg.test.ts on PostgreSQL), through the domain functions the REST routes and
// the pages call, the mail read from the outbox the test's data directory holds (no SMTP server
// is configured): a sign-up makes no account until its link is followed with its password, a
// stranger's earlier sign-up with the owner's address leaves them nothing, a sign-up never
// changes a verified account, links are single use, a login tells nothing of a pending sign-up,
// a password reset is recovery (every session ended, every key revoked, other links void), a
// reset request does the same durable work for any address, mail kinds spend budgets of their
// own, and an e-mail change ends the old address's reach.
import fs from "node:fs";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";

/** The cases, on the database the calling file opened (openTestLog) before they run. */
export function accountRuleCases(label: string) {
  describe(`account rules (${label})`, () => {
    // Each test from a client address of its own: the throttles count per address.
    const client = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID()}`;
    const address = () => `owner-${randomBytes(6).toString("hex")}@example.org`;
    const domain = async () => ({
      ...(await import("./registration")),
      ...(await import("../../auth/login")),
      ...(await import("./password-reset")),
      ...(await import("../../mail/transport")),
      ...(await import("../../db")),
    });

    /** Every link token mailed to `to` so far, oldest first, waiting for the background send to land. */
    const mailedTokens = async (to: string, atLeast: number): Promise<string[]> => {
      const { outboxDir } = await domain();
      for (let i = 0; i < 200; i++) {
        const dir = outboxDir();
        const texts = fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .filter((f) => f.endsWith(".txt"))
              .sort()
              .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
              .filter((t) => t.startsWith(`To: ${to}\n`))
          : [];
        const tokens = texts.flatMap((t) => [...t.matchAll(/[?&]token=([^\s&]+)/g)].map((m) => decodeURIComponent(m[1]!)));
        if (tokens.length >= atLeast) return tokens;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`fewer than ${atLeast} links mailed to ${to}`);
    };
    const codeOf = async (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (err: { code?: string }) => err.code ?? String(err),
      );

    it("makes no account at sign-up; the link, followed with the sign-up's password, makes it", async () => {
      const { signUp, verifyEmail, login, getDb } = await domain();
      const email = address();
      expect(await signUp({ email, password: "owner's password", name: "Owner", client: client(), headers: {} })).toEqual({
        status: "verification_sent",
        email,
      });
      expect(await getDb().read.user.count({ where: { email } })).toBe(0);
      // The right password before the link is the same 401 as a wrong one: a login tells nothing of a pending sign-up.
      expect(await codeOf(login({ email, password: "owner's password", client: client() }))).toBe("invalid_credentials");
      const [token] = await mailedTokens(email, 1);
      expect(await codeOf(verifyEmail({ token: token! }))).toBe("validation_failed");
      expect(await codeOf(verifyEmail({ token: token!, password: "another password" }))).toBe("wrong_password");
      expect(await verifyEmail({ token: token!, password: "owner's password" })).toEqual({ status: "verified", email });
      expect(await codeOf(verifyEmail({ token: token!, password: "owner's password" }))).toBe("invalid_token");
      const session = await login({ email, password: "owner's password", client: client() });
      expect(session.user).toMatchObject({ email, name: "Owner" });
    });

    it("leaves a stranger who signed up first with the owner's address with nothing once the owner follows their link", async () => {
      const { signUp, verifyEmail, login, getDb } = await domain();
      const email = address();
      await signUp({ email, password: "stranger's password", name: "Stranger", client: client(), headers: {} });
      await signUp({ email, password: "owner's password", name: "Owner", client: client(), headers: {} });
      const [strangers, owners] = await mailedTokens(email, 2);
      expect(await verifyEmail({ token: owners!, password: "owner's password" })).toMatchObject({ status: "verified" });
      // Every other registration of the address is void, so none can make an account later (say, once this one is deleted).
      expect(await getDb().read.registration.count({ where: { email, usedAt: null } })).toBe(0);
      // The stranger's link is void, and their password opens nothing.
      expect(await codeOf(verifyEmail({ token: strangers!, password: "stranger's password" }))).toBe("invalid_token");
      expect(await codeOf(login({ email, password: "stranger's password", client: client() }))).toBe("invalid_credentials");
      expect((await login({ email, password: "owner's password", client: client() })).user.name).toBe("Owner");
    });

    it("never changes a verified account by a sign-up: the same answer, a notice mailed, no link, the password unchanged", async () => {
      const { signUp, login, verifyEmail } = await domain();
      const { createConsumer } = await import("./consumers");
      const email = address();
      await createConsumer({ email, password: "owner's password", name: "Owner", plan: "free", verified: true });
      expect(await signUp({ email, password: "stranger's password", name: "Stranger", client: client(), headers: {} })).toEqual({
        status: "verification_sent",
        email,
      });
      const { outboxDir } = await domain();
      await expect
        .poll(
          () =>
            fs.existsSync(outboxDir()) &&
            fs
              .readdirSync(outboxDir())
              .filter((f) => f.endsWith(".txt"))
              .some((f) => fs.readFileSync(path.join(outboxDir(), f), "utf8").startsWith(`To: ${email}\n`)),
        )
        .toBe(true);
      // The notice carries no link to follow.
      const tokens = await mailedTokens(email, 0);
      expect(tokens).toEqual([]);
      expect(await codeOf(verifyEmail({ token: randomBytes(32).toString("base64url"), password: "x" }))).toBe("invalid_token");
      expect(await codeOf(login({ email, password: "stranger's password", client: client() }))).toBe("invalid_credentials");
      expect((await login({ email, password: "owner's password", client: client() })).user.name).toBe("Owner");
    });

    it("resets a password by a single-use link, ending every session; a wrong or unknown link is refused", async () => {
      const { requestPasswordReset, resetPassword, login, getDb } = await domain();
      const { createConsumer } = await import("./consumers");
      const email = address();
      const { userId } = await createConsumer({ email, password: "old password", name: "Owner", plan: "free", verified: true });
      await login({ email, password: "old password", client: client() });
      const live = () => getDb().read.session.count({ where: { userId, endedAt: null } });
      expect(await live()).toBe(1);
      await requestPasswordReset({ email, client: client(), headers: {} });
      const [token] = await mailedTokens(email, 1);
      expect(await resetPassword({ token: token!, password: "new password" })).toEqual({
        status: "password_reset",
        email,
        sessions_ended: 1,
        api_keys_revoked: 0,
      });
      expect(await live()).toBe(0);
      expect(await codeOf(resetPassword({ token: token!, password: "third password" }))).toBe("invalid_token");
      expect(await codeOf(resetPassword({ token: "not a token", password: "third password" }))).toBe("invalid_token");
      expect(await codeOf(login({ email, password: "old password", client: client() }))).toBe("invalid_credentials");
      expect((await login({ email, password: "new password", client: client() })).user.email).toBe(email);
    });

    it("revokes every API key of the account at a reset, and lists them first without using the link up", async () => {
      const { requestPasswordReset, resetPassword, resetKeys, getDb } = await domain();
      const { createConsumer } = await import("./consumers");
      const { createApiKey } = await import("./api-keys");
      const email = address();
      const { tenantId } = await createConsumer({ email, password: "old password", name: "Owner", plan: "free", verified: true });
      const made = await createApiKey({ tenantId, name: "left by a stolen session", scopes: ["protections:read"] });
      await requestPasswordReset({ email, client: client(), headers: {} });
      const [token] = await mailedTokens(email, 1);
      const listed = await resetKeys({ token: token! });
      expect(listed).toEqual({
        items: [{ name: "left by a stolen session", prefix: made.key.prefix, created_at: made.key.created_at }],
        total: 1,
      });
      // Listing twice uses nothing up.
      expect(await resetKeys({ token: token! })).toEqual(listed);
      expect(await codeOf(resetKeys({ token: randomBytes(32).toString("base64url") }))).toBe("invalid_token");
      expect((await resetPassword({ token: token!, password: "new password" })).api_keys_revoked).toBe(1);
      expect(await getDb().read.apiKey.findUniqueOrThrow({ where: { id: made.key.id } })).toMatchObject({ status: "REVOKED" });
      expect(await codeOf(resetKeys({ token: token! }))).toBe("invalid_token");
    });

    it("writes one link row per reset request whether or not the address has an account, live only when mailed", async () => {
      const { requestPasswordReset, getDb } = await domain();
      const { createConsumer } = await import("./consumers");
      const owner = address();
      const nobody = address();
      await createConsumer({ email: owner, password: "a password", name: "Owner", plan: "free", verified: true });
      /** The reset link rows a request wrote (the cases of a file run one at a time). */
      const rowsOf = async (request: () => Promise<unknown>) => {
        const before = new Set((await getDb().read.emailToken.findMany({ select: { id: true } })).map((r) => r.id));
        await request();
        const all = await getDb().read.emailToken.findMany({ select: { id: true, userId: true, email: true, usedAt: true } });
        return all.filter((r) => !before.has(r.id));
      };
      const [ownerRow, ...moreOwner] = await rowsOf(() => requestPasswordReset({ email: owner, client: client(), headers: {} }));
      const [nobodyRow, ...moreNobody] = await rowsOf(() => requestPasswordReset({ email: nobody, client: client(), headers: {} }));
      expect([moreOwner, moreNobody]).toEqual([[], []]);
      expect(ownerRow).toMatchObject({ email: owner, usedAt: null });
      expect(ownerRow!.userId).not.toBeNull();
      // For no one: born used, naming no address.
      expect(nobodyRow).toMatchObject({ userId: null, email: null });
      expect(nobodyRow!.usedAt).not.toBeNull();
    });

    it("keeps reset links out of reach of sign-up mail, and holds a share for a client address that logged in before", async () => {
      const { signUp, requestPasswordReset, login } = await domain();
      const { createConsumer } = await import("./consumers");
      const { MAIL_BUDGETS } = await import("./mail-budgets");
      const email = address();
      await createConsumer({ email, password: "owner's password", name: "Owner", plan: "free", verified: true });
      const home = client();
      await login({ email, password: "owner's password", client: home });
      // Strangers spend the sign-up notices and the shared reset share.
      for (let i = 0; i < MAIL_BUDGETS.signup + 2; i++)
        await signUp({ email, password: "x".repeat(12), name: "S", client: client(), headers: {} });
      for (let i = 0; i < MAIL_BUDGETS.reset + 2; i++) await requestPasswordReset({ email, client: client(), headers: {} });
      const before = (await mailedTokens(email, MAIL_BUDGETS.reset)).length;
      expect(before).toBe(MAIL_BUDGETS.reset);
      // A stranger gets no more; the owner, from an address that logged in before, does.
      await requestPasswordReset({ email, client: client(), headers: {} });
      await requestPasswordReset({ email, client: home, headers: {} });
      expect((await mailedTokens(email, before + 1)).length).toBe(before + 1);
    });

    it("ends the old address's reach at an e-mail change: other sessions end, its pending links stop working", async () => {
      const { requestPasswordReset, resetPassword, verifyEmail, login, getDb } = await domain();
      const { requestEmailChange } = await import("./email-change");
      const { createConsumer } = await import("./consumers");
      const old = address();
      const next = address();
      const { userId } = await createConsumer({ email: old, password: "owner's password", name: "Owner", plan: "free", verified: true });
      const asking = await login({ email: old, password: "owner's password", client: client() });
      await login({ email: old, password: "owner's password", client: client() });
      await requestPasswordReset({ email: old, client: client(), headers: {} });
      const [reset] = await mailedTokens(old, 1);
      await requestEmailChange({ userId, sessionId: asking.sid, email: next, password: "owner's password", client: client(), headers: {} });
      const [change] = await mailedTokens(next, 1);
      expect(await verifyEmail({ token: change!, password: "owner's password" })).toEqual({ status: "verified", email: next });
      const live = await getDb().read.session.findMany({ where: { userId, endedAt: null }, select: { id: true } });
      expect(live.map((s) => s.id)).toEqual([asking.sid]);
      expect(await codeOf(resetPassword({ token: reset!, password: "a new password" }))).toBe("invalid_token");
    });

    it("lets no change checked before a reset land after it: a password change of an ended session, a login's session", async () => {
      const { login, getDb } = await domain();
      const { changePassword } = await import("./account-settings");
      const { createSession } = await import("../../auth/sessions");
      const { createConsumer } = await import("./consumers");
      const email = address();
      const { userId, tenantId } = await createConsumer({ email, password: "old password", name: "Owner", plan: "free", verified: true });
      const stolen = await login({ email, password: "old password", client: client() });
      const principal = { kind: "session" as const, userId, tenantId, sessionId: stolen.sid, scopes: new Set<never>() };
      const user = await getDb().read.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
      // The owner's reset lands: the session ends and the password is another.
      await getDb().write(async (tx) => {
        await tx.session.updateMany({ where: { userId }, data: { endedAt: new Date() } });
        await tx.user.update({ where: { id: userId }, data: { passwordHash: "the owner's new hash" } });
      });
      const request = { client: "198.51.100.1", userAgent: null };
      expect(await codeOf(changePassword(principal, { password: "old password", new_password: "attacker's" }, request))).toBe(
        "wrong_password",
      );
      // A login checked against the old hash writes no session once the hash is another.
      const account = { id: userId, email, name: "Owner", verifiedHash: user.passwordHash };
      expect(await codeOf(createSession(account, { clientAddress: "198.51.100.1" }))).toBe("invalid_credentials");
      expect(await getDb().read.session.count({ where: { userId, endedAt: null } })).toBe(0);
      // With the hash still the account's, but the asking session ended: 401, nothing changed.
      await getDb().write((tx) => tx.user.update({ where: { id: userId }, data: { passwordHash: user.passwordHash } }));
      expect(await codeOf(changePassword(principal, { password: "old password", new_password: "attacker's" }, request))).toBe(
        "invalid_session",
      );
      const after = await getDb().read.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
      expect(after.passwordHash).toBe(user.passwordHash);
    });
  });
}
