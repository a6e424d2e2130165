// @hallmark-test db=sqlite lane=main
// A session cookie acts only for requests from Hallmark's own pages. What another origin can
// make a browser send (a form POST, a fetch with credentials), with the visitor's cookie
// attached, changes nothing: 403 cross_origin_request, and nothing is written. API keys and
// bearer tokens, which no page can attach across origins, are unaffected.
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrls, createIssuer, expectProblem, sessionToken } from "./helpers";
import { seedConsumer, seedOrg, type SeededConsumer } from "../accounts";

const EVIL = "https://evil.example";
/** Same site as the server (an IP's site ignores the port), another origin: SameSite=Lax lets the cookie through. */
const sibling = (instance = 0) => `http://127.0.0.1:${Number(new URL(baseUrls[instance]!).port) === 1 ? 2 : 1}`;
const own = (instance = 0) => baseUrls[instance]!;
const cookieOf = (token: string) => `next-auth.session-token=${token}`;

/** What a browser attaches to a request another page makes it send, for each kind of other origin. */
const foreign = (cookie: string): { what: string; headers: Record<string, string> }[] => [
  { what: "another site", headers: { cookie, origin: EVIL, "sec-fetch-site": "cross-site" } },
  { what: "another origin of the same site", headers: { cookie, origin: sibling(), "sec-fetch-site": "same-site" } },
  { what: "an opaque origin (sandboxed frame, data: URL)", headers: { cookie, origin: "null" } },
  { what: "no Origin, Sec-Fetch-Site: same-site", headers: { cookie, "sec-fetch-site": "same-site" } },
  { what: "nothing that says where it comes from", headers: { cookie } },
];

describe("cookie-borne changes from other origins", () => {
  let consumer: SeededConsumer;
  let cookie: string;
  beforeAll(async () => {
    consumer = await seedConsumer();
    cookie = cookieOf(await sessionToken(consumer.email, consumer.password));
  });

  async function keys() {
    const res = await api("/v1/api-keys", { key: consumer.apiKey });
    expect(res.status).toBe(200);
    return res.body as { id: string; status: string; name: string }[];
  }

  it("a form-encoded revoke is refused and revokes nothing; from Hallmark's own page it revokes", async () => {
    const created = await api("/v1/api-keys", { key: consumer.apiKey, json: { name: "target", scopes: ["protections:read"] } });
    expect(created.status, created.text).toBe(201);
    const path = `/v1/api-keys/${created.body.id}/revoke`;
    for (const { what, headers } of foreign(cookie)) {
      const res = await api(path, {
        method: "POST",
        raw: "x=1",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      });
      expectProblem(res, 403, "cross_origin_request");
      expect((await keys()).find((k) => k.id === created.body.id)?.status, what).toBe("ACTIVE");
    }
    const ok = await api(path, { method: "POST", headers: { cookie, origin: own() } });
    expect(ok.status, ok.text).toBe(200);
    expect((await keys()).find((k) => k.id === created.body.id)?.status).toBe("REVOKED");
  });

  it("a JSON tRPC apiKeys.create with credentials is refused and creates nothing", async () => {
    const before = (await keys()).length;
    // With the account's password (a session's key creation takes it), so only the origin is at stake.
    const body = JSON.stringify({ name: "planted", scopes: ["protections:read"], password: consumer.password });
    for (const { headers } of foreign(cookie)) {
      // text/plain: what a page elsewhere can send with credentials and no preflight.
      for (const type of ["text/plain", "application/json"]) {
        const res = await api("/api/trpc/apiKeys.create", { method: "POST", raw: body, headers: { ...headers, "content-type": type } });
        expectProblem(res, 403, "cross_origin_request");
      }
    }
    expect((await keys()).length).toBe(before);
    const ok = await api("/api/trpc/apiKeys.create", {
      method: "POST",
      raw: body,
      headers: { cookie, origin: own(), "content-type": "application/json" },
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await keys()).length).toBe(before + 1);
  });

  it("an organisation owner's issuer key is not rotated from elsewhere", async () => {
    const owner = await seedOrg({ owner: true });
    const issuer = await createIssuer(owner.apiKey);
    const ownerCookie = cookieOf(await sessionToken(owner.email, owner.password));
    const keyCount = async () => (await api(`/v1/issuers/${issuer.id}`, { key: owner.apiKey })).body.keys.length as number;
    for (const { headers } of foreign(ownerCookie)) {
      expectProblem(await api(`/v1/issuers/${issuer.id}/keys`, { method: "POST", headers }), 403, "cross_origin_request");
    }
    expect(await keyCount()).toBe(1);
    const ok = await api(`/v1/issuers/${issuer.id}/keys`, {
      method: "POST",
      headers: { cookie: ownerCookie, "sec-fetch-site": "same-origin" },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(await keyCount()).toBe(2);
  });

  it("the login and sign-up forms cannot be posted from elsewhere, with or without cookies", async () => {
    const login = { email: consumer.email, password: consumer.password };
    const cases = [
      { path: "/v1/consumer/login", raw: JSON.stringify(login), type: "application/json" },
      {
        path: "/v1/consumer/signup",
        raw: JSON.stringify({ email: "x@example.org", password: "long enough", name: "X" }),
        type: "application/json",
      },
      { path: "/api/trpc/consumerAuth.login", raw: JSON.stringify(login), type: "application/json" },
      {
        path: "/api/trpc/consumerAuth.signup",
        raw: JSON.stringify({ email: "x@example.org", password: "long enough", name: "X" }),
        type: "application/json",
      },
      { path: "/api/auth/callback/credentials", raw: new URLSearchParams(login).toString(), type: "application/x-www-form-urlencoded" },
    ];
    for (const { path, raw, type } of cases) {
      for (const origin of [EVIL, sibling(), "null"]) {
        expectProblem(await api(path, { method: "POST", raw, headers: { origin, "content-type": type } }), 403, "cross_origin_request");
      }
    }
    // A client that is no browser (no Origin, no cookie) still logs in over REST.
    expect((await api("/v1/consumer/login", { json: login, headers: { "x-forwarded-for": "10.9.9.9" } })).status).toBe(200);
  });

  it("API keys and bearer tokens are unaffected, whatever the Origin", async () => {
    const bearer = await sessionToken(consumer.email, consumer.password);
    const byKey = await api("/v1/api-keys", {
      key: consumer.apiKey,
      json: { name: "by key", scopes: ["protections:read"] },
      headers: { origin: EVIL, cookie },
    });
    expect(byKey.status, byKey.text).toBe(201);
    const byBearer = await api("/v1/api-keys", {
      json: { name: "by bearer", scopes: ["protections:read"], password: consumer.password },
      headers: { origin: EVIL, authorization: `Bearer ${bearer}` },
    });
    expect(byBearer.status, byBearer.text).toBe(201);
    // Reads change nothing, so they are not refused (a GET with the cookie from elsewhere).
    expect((await api("/v1/api-keys", { headers: { cookie, origin: EVIL } })).status).toBe(200);
  });
});
