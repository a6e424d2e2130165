// @hallmark-test db=sqlite,postgres lane=main
// An organisation's owner signs in with e-mail and password (the console); the session holds the
// organisation's scopes, exactly as its API keys do, and nothing of a consumer's.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cli } from "../cli";
import { api, expectProblem, randomContentHash } from "./helpers";
import { seedOrg } from "../accounts";

describe("organisation owners", () => {
  it("log in with realm organization and act with the organisation's scopes", async () => {
    const org = await seedOrg({ name: "Owned Org", owner: { name: "Grace" } });
    const login = await api("/v1/consumer/login", { json: { email: org.email, password: org.password } });
    expect(login.status, login.text).toBe(200);
    expect(login.body.user).toEqual({ id: org.ownerId, email: org.email, name: "Grace", realm: "organization" });
    const bearer = { authorization: `Bearer ${login.body.session_token}` };

    const keys = await api("/v1/api-keys", { headers: bearer });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body.map((k: { name: string }) => k.name)).toEqual(["bootstrap"]);
    const issuer = await api("/v1/issuers", {
      headers: bearer,
      json: { name: "Newsroom", domain: `n-${randomUUID().slice(0, 6)}.example.org` },
    });
    expect(issuer.status, issuer.text).toBe(201);
    // The same issuer is the organisation's: its API key sees it.
    const viaKey = await api(`/v1/issuers/${issuer.body.id}`, { key: org.apiKey });
    expect(viaKey.status).toBe(200);
    // A consumer's endpoints are not an organisation's.
    expectProblem(
      await api("/v1/consumer/mint", { headers: bearer, json: { content_hash: randomContentHash() } }),
      403,
      "insufficient_scope",
    );
  });

  it("create-org refuses a short owner password and writes nothing", async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.org`;
    let failed: { status: number | null; stderr: string } | null = null;
    try {
      execFileSync(...cli("admin", "create-org", "--name", "X", "--owner-email", email, "--owner-password", "short", "--json"), {
        encoding: "utf8",
        env: process.env,
        stdio: "pipe",
      });
    } catch (err) {
      const e = err as { status: number | null; stderr: string };
      failed = { status: e.status, stderr: String(e.stderr) };
    }
    expect(failed?.status).toBe(2);
    expect(failed?.stderr).toContain("--owner-password needs at least 8 characters");
    // No account was made: signing up with the address starts a fresh one (a new, unverified user).
    expectProblem(await api("/v1/consumer/login", { json: { email, password: "short" } }), 401, "invalid_credentials");
  });
});
