// Which cookie carries a session, under an http and an https base URL.
import { afterEach, describe, expect, it, vi } from "vitest";

/** session-cookie.ts with HALLMARK_BASE_URL set (the configuration is read once per module instance). */
async function withBaseUrl(baseUrl: string) {
  vi.resetModules();
  vi.stubEnv("HALLMARK_BASE_URL", baseUrl);
  return import("./session-cookie");
}

afterEach(() => vi.unstubAllEnvs());

const TOKEN = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abc.def-ghi_jkl.mno";

describe("the session cookie", () => {
  it("under https: only the __Secure- name counts (a plain one can be planted over http or by a sibling host)", async () => {
    const c = await withBaseUrl("https://hallmark.example");
    expect(c.sessionCookieName()).toBe("__Secure-next-auth.session-token");
    expect(c.sessionTokenFromCookieHeader(`__Secure-next-auth.session-token=${TOKEN}`)).toBe(TOKEN);
    expect(c.sessionTokenFromCookieHeader(`next-auth.session-token=${TOKEN}`)).toBeNull();
    expect(c.sessionCookie(TOKEN)).toMatch(/^__Secure-next-auth\.session-token=.*; Secure$/);
  });

  it("under http (development): the plain name", async () => {
    const c = await withBaseUrl("http://localhost:3000");
    expect(c.sessionTokenFromCookieHeader(`a=1; next-auth.session-token=${TOKEN}; b=2`)).toBe(TOKEN);
    expect(c.sessionTokenFromCookieHeader(`__Secure-next-auth.session-token=${TOKEN}`)).toBeNull();
    expect(c.sessionCookie(TOKEN)).not.toContain("Secure");
  });

  it("treats malformed values, and two cookies of the session's name, as no session", async () => {
    const c = await withBaseUrl("https://hallmark.example");
    const name = "__Secure-next-auth.session-token";
    for (const header of [
      `${name}=%`,
      `${name}=%E0%A4%A`,
      `${name}=`,
      name,
      `${name}=a b`,
      `${name}="${TOKEN}"`,
      `${name}=${"a".repeat(9000)}`,
      ";;=;",
      "",
    ]) {
      expect(c.sessionTokenFromCookieHeader(header), header).toBeNull();
    }
    expect(c.sessionTokenFromCookieHeader(`${name}=${TOKEN}; ${name}=${TOKEN}x`)).toBeNull();
    expect(c.sessionTokenFromCookieHeader(null)).toBeNull();
  });

  it("takes Authorization: Bearer before the cookie", async () => {
    const c = await withBaseUrl("https://hallmark.example");
    const req = new Request("https://hallmark.example/v1/log", {
      headers: { authorization: "Bearer abc", cookie: `__Secure-next-auth.session-token=${TOKEN}` },
    });
    expect(c.sessionTokenFromRequest(req)).toBe("abc");
  });
});
