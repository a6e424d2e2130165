// @hallmark-test db=sqlite lane=main
// The dashboard's tRPC endpoint (/api/trpc) answers a domain failure with its own status and
// stable code, exactly as /v1 does: never a 500 for something the caller did wrong.
import { describe, expect, it } from "vitest";
import { api } from "./helpers";

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;

describe("/api/trpc", () => {
  it("keeps each AppError's status and code", async () => {
    const cases = [
      { res: await api("/api/trpc/consumerAuth.verifyEmail", { json: { token: "A".repeat(43) } }), status: 400, code: "invalid_token" },
      {
        res: await api(`/api/trpc/public.protection?${input({ id: "0190a0a0-0000-7000-8000-000000000000" })}`),
        status: 404,
        code: "not_found",
      },
      { res: await api(`/api/trpc/consumer.usage`), status: 401, code: "unauthenticated" },
      {
        res: await api("/api/trpc/consumerAuth.login", { json: { email: "nobody@example.org", password: "x" } }),
        status: 401,
        code: "invalid_credentials",
      },
    ];
    for (const { res, status, code } of cases) {
      expect({ status: res.status, code: res.body?.error?.data?.appCode }, res.text).toEqual({ status, code });
      expect(res.text).not.toMatch(/at .*\.js:\d+/); // no stack traces
    }
  });

  it("reports each call's own status inside a batch, as the dashboard's client sends them", async () => {
    const batch = encodeURIComponent(JSON.stringify({ 0: { id: "0190a0a0-0000-7000-8000-000000000000" }, 1: {} }));
    const res = await api(`/api/trpc/public.protection,viewer.me?batch=1&input=${batch}`);
    expect(res.body.map((r: { error?: { data: { httpStatus: number; appCode: string } } }) => r.error?.data.httpStatus ?? 200)).toEqual([
      404, 200,
    ]);
    expect(res.body[0].error.data.appCode).toBe("not_found");
    const one = await api(`/api/trpc/public.protection?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { id: "nope" } }))}`);
    expect(one.status).toBe(404);
  });

  it("answers invalid input with field errors, and no session with 401 on a session-only procedure", async () => {
    const res = await api("/api/trpc/consumerAuth.signup", { json: { email: "not-an-email", password: "short", name: "" } });
    expect(res.status, res.text).toBe(400);
    expect(Object.keys(res.body.error.data.fieldErrors).sort()).toEqual(["email", "name", "password"]);
    const logout = await api("/api/trpc/consumerAuth.logout", { json: {} });
    expect(logout.status).toBe(401);
  });

  it("ignores an API key: the dashboard's endpoint acts only for the session cookie", async () => {
    const res = await api("/api/trpc/viewer.me", { key: "hm_live_anything" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.data).toBeNull();
  });
});
