// @hallmark-test db=sqlite,postgres lane=main
// The public reads behind the verify, share and portfolio pages, and the protections filters.
import { describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { api, baseUrl, expectProblem, logInfo, mint, randomContentHash } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

async function minted(apiKey: string, body: Record<string, unknown>) {
  const res = await mint(apiKey, { content_hash: randomContentHash(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { protection_id: string; attestation_id: string; content_hash: string; protected_at: string };
}

describe("public protection reads", () => {
  it("shows a public protection's metadata and creator to anyone, without credentials", async () => {
    const { apiKey, userId } = await seedConsumer();
    const p = await minted(apiKey, {
      title: "Cover art",
      description: "Final cut",
      file_name: "cover.png",
      content_type: "image/png",
      file_size: 2048,
      category: "design",
      visibility: "public",
    });
    const res = await api(`/v1/protections/${p.protection_id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      protection_id: p.protection_id,
      attestation_id: p.attestation_id,
      content_hash: p.content_hash,
      category: "design",
      visibility: "public",
      protected_at: p.protected_at,
      title: "Cover art",
      description: "Final cut",
      file_name: "cover.png",
      content_type: "image/png",
      file_size: 2048,
      creator: { name: expect.any(String), portfolio_url: `${baseUrl}/portfolio/${userId}` },
      verify_url: `${baseUrl}/verify/${p.protection_id}`,
      share_url: `${baseUrl}/share/${p.protection_id}`,
      proof_bundle_url: `${baseUrl}/v1/protections/${p.protection_id}/proof-bundle`,
    });
    expect(typeof res.body.log_index).toBe("number");
  });

  it("shows nothing of a private protection to anyone but its owner: 404, as for an unknown id", async () => {
    const secret = `secret-${randomContentHash().slice(0, 12)}`;
    const { apiKey } = await seedConsumer({ name: `Creator ${secret}` });
    const p = await minted(apiKey, {
      title: secret,
      description: secret,
      file_name: `${secret}.pdf`,
      content_type: "application/pdf",
      file_size: 9,
      visibility: "private",
    });
    const unknown = "0190a0a0-0000-7000-8000-000000000000";
    const stranger = await seedConsumer();
    for (const path of ["", "/proof-bundle", "/tlog-proof", "/certificate.pdf", "/badge.svg"]) {
      for (const key of [undefined, stranger.apiKey]) {
        const res = await api(`/v1/protections/${p.protection_id}${path}`, { key });
        expectProblem(res, 404, "not_found");
        expect(res.text).not.toContain(secret);
        expect(res.body.detail, path).toBe((await api(`/v1/protections/${unknown}${path}`, { key })).body.detail);
      }
    }
    // Its owner sees it whole, with the proof that opens its sealed log entry.
    const own = await api(`/v1/protections/${p.protection_id}`, { key: apiKey });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ content_hash: p.content_hash, visibility: "private", title: secret, file_size: 9 });
    const bundle = await api(`/v1/protections/${p.protection_id}/proof-bundle`, { key: apiKey });
    expect(bundle.status).toBe(200);
    expect(bundle.body.seal.leaf.payload.type).toBe("hallmark.sealed/v2");
    // The personal issuer that signs it is named for what it is, not for its account.
    expect(own.body.issuer.name).toBe("Hallmark personal issuer");
    expect(bundle.body.issuer.name).toBe("Hallmark personal issuer");
  });

  it("serves a public protection's proof bundle, which verifies offline against the log key", async () => {
    const { apiKey } = await seedConsumer();
    const p = await minted(apiKey, { visibility: "public" });
    const bundle = await api(`/v1/protections/${p.protection_id}/proof-bundle`);
    expect(bundle.status, bundle.text).toBe(200);
    const result = verifyProofBundle(bundle.body, { logPublicKey: (await logInfo()).verifier_key });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(bundle.body.attestation.id).toBe(p.attestation_id);
    expect(bundle.body.attestation.payload).toMatchObject({ protection_id: p.protection_id, content_hash: `sha256:${p.content_hash}` });
    expect(bundle.body.seal).toBeUndefined();
  });

  it("publishes a protection made public with the opening of its sealed entry, and hides it again when made private", async () => {
    const { apiKey } = await seedConsumer();
    const p = await minted(apiKey, { title: "Later public", visibility: "private" });
    expectProblem(await api(`/v1/protections/${p.protection_id}`), 404, "not_found");
    const made = await api(`/v1/consumer/protections/${p.protection_id}`, { key: apiKey, method: "PATCH", json: { visibility: "public" } });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ protection_id: p.protection_id, visibility: "public", sealed: true });
    const bundle = await api(`/v1/protections/${p.protection_id}/proof-bundle`);
    expect(bundle.status, bundle.text).toBe(200);
    const result = verifyProofBundle(bundle.body, { logPublicKey: (await logInfo()).verifier_key });
    expect(result.ok && result.checks.map((c) => c.name)).toContain("seal_opening");
    expect((await api(`/v1/protections/${p.protection_id}`)).body.title).toBe("Later public");

    const hidden = await api(`/v1/consumer/protections/${p.protection_id}`, {
      key: apiKey,
      method: "PATCH",
      json: { visibility: "private" },
    });
    expect(hidden.status, hidden.text).toBe(200);
    for (const path of ["", "/proof-bundle", "/tlog-proof"])
      expectProblem(await api(`/v1/protections/${p.protection_id}${path}`), 404, "not_found");

    // Only the owner changes it; anything else is refused, and nothing changes.
    const stranger = await seedConsumer();
    const stolen = await api(`/v1/consumer/protections/${p.protection_id}`, {
      key: stranger.apiKey,
      method: "PATCH",
      json: { visibility: "public" },
    });
    expectProblem(stolen, 404, "not_found");
    expectProblem(
      await api(`/v1/consumer/protections/${p.protection_id}`, { key: apiKey, method: "PATCH", json: { visibility: "shared" } }),
      422,
      "validation_failed",
    );
    expectProblem(
      await api(`/v1/consumer/protections/${p.protection_id}`, { key: apiKey, method: "PATCH", json: {} }),
      422,
      "validation_failed",
    );
    expectProblem(await api(`/v1/protections/${p.protection_id}`), 404, "not_found");
  });

  it("answers 404 problem+json for an unknown or malformed id, and 405 for other methods", async () => {
    for (const path of [
      "/v1/protections/0190a0a0-0000-7000-8000-000000000000",
      "/v1/protections/nope",
      "/v1/protections/nope/proof-bundle",
    ]) {
      expectProblem(await api(path), 404, "not_found");
    }
    expectProblem(await api("/v1/protections/0190a0a0-0000-7000-8000-000000000000", { method: "DELETE" }), 405, "method_not_allowed");
  });

  it("rejects invalid credentials even on a public read", async () => {
    const { apiKey } = await seedConsumer();
    const p = await minted(apiKey, {});
    expectProblem(await api(`/v1/protections/${p.protection_id}`, { key: "hm_live_not-a-key" }), 401, "invalid_api_key");
  });
});

describe("portfolios", () => {
  it("lists only a creator's public protections, newest first", async () => {
    const { apiKey, userId } = await seedConsumer();
    const a = await minted(apiKey, { title: "A", visibility: "public" });
    await minted(apiKey, { title: "hidden", visibility: "private" });
    const c = await minted(apiKey, { title: "C", visibility: "public" });
    const res = await api(`/v1/portfolios/${userId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.creator).toMatchObject({ id: userId, portfolio_url: `${baseUrl}/portfolio/${userId}` });
    expect(res.body.items.map((i: { protection_id: string }) => i.protection_id)).toEqual([c.protection_id, a.protection_id]);
    expect(res.text).not.toContain("hidden");
    const page2 = await api(`/v1/portfolios/${userId}?limit=1&offset=1`);
    expect(page2.body.items.map((i: { protection_id: string }) => i.protection_id)).toEqual([a.protection_id]);
    expectProblem(await api(`/v1/portfolios/${userId}?limit=0`), 400, "invalid_parameter");
    expectProblem(await api(`/v1/portfolios/${userId}?offset=x`), 400, "invalid_parameter");
  });

  it("has no portfolio for an unknown id or an organisation", async () => {
    expectProblem(await api("/v1/portfolios/0190a0a0-0000-7000-8000-000000000000"), 404, "not_found");
    // An organisation's owner is a user, but not a creator with a portfolio.
    const { ownerId } = await seedOrg({ owner: true });
    expect(ownerId).toMatch(/^[0-9a-f-]{36}$/);
    expectProblem(await api(`/v1/portfolios/${ownerId}`), 404, "not_found");
  });
});

describe("protections filters", () => {
  it("filters the caller's list by category and visibility; total counts the matches", async () => {
    const { apiKey } = await seedConsumer({ plan: "creator" });
    const pub = await minted(apiKey, { category: "design", visibility: "public" });
    const priv = await minted(apiKey, { category: "design", visibility: "private" });
    const code = await minted(apiKey, { category: "code", visibility: "public" });
    const ids = (body: { items: { protection_id: string }[] }) => body.items.map((i) => i.protection_id);
    const design = await api("/v1/consumer/protections?category=design", { key: apiKey });
    expect(design.status, design.text).toBe(200);
    expect({ ids: ids(design.body), total: design.body.total }).toEqual({ ids: [priv.protection_id, pub.protection_id], total: 2 });
    const publicOnes = await api("/v1/consumer/protections?visibility=public", { key: apiKey });
    expect({ ids: ids(publicOnes.body), total: publicOnes.body.total }).toEqual({ ids: [code.protection_id, pub.protection_id], total: 2 });
    const both = await api("/v1/consumer/protections?visibility=public&category=design&limit=1", { key: apiKey });
    expect({ ids: ids(both.body), total: both.body.total, next: both.body.next_cursor }).toEqual({
      ids: [pub.protection_id],
      total: 1,
      next: null,
    });
    expectProblem(await api("/v1/consumer/protections?category=paintings", { key: apiKey }), 400, "invalid_parameter");
    expectProblem(await api("/v1/consumer/protections?visibility=secret", { key: apiKey }), 400, "invalid_parameter");
  });
});
