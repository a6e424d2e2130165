// @hallmark-test db=sqlite,postgres lane=main
// POST /v1/consumer/mint: the answer, the signed payload and its offline proof, validation,
// the personal issuer made once, and Idempotency-Key.
import { describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { api, baseUrl, baseUrls, expectProblem, logKey, mint, randomContentHash } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

const used = async (key: string) => (await api("/v1/consumer/usage", { key })).body.used as number;

describe("consumer mint", () => {
  it("answers 201 with the protection record and defaults (private, other)", async () => {
    const { apiKey } = await seedConsumer();
    const hex = randomContentHash();
    const res = await mint(apiKey, { content_hash: `sha256:${hex.toUpperCase()}` });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ["attestation_id", "content_hash", "protected_at", "protection_id", "share_url", "status", "verify_url"].sort(),
    );
    const id = res.body.protection_id;
    expect(res.body).toMatchObject({
      status: "protected",
      content_hash: hex,
      verify_url: `${baseUrl}/verify/${id}`,
      share_url: `${baseUrl}/share/${id}`,
    });
    expect(res.body.attestation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(res.body.protected_at).toISOString()).toBe(res.body.protected_at);
    const list = await api("/v1/consumer/protections", { key: apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0]).toMatchObject({
      protection_id: id,
      id: res.body.attestation_id,
      category: "other",
      visibility: "private",
      title: null,
    });
  });

  it("a consumer reads its mint's attestation and proof bundle by attestation id; another account's is a 404", async () => {
    const owner = await seedConsumer();
    const other = await seedConsumer();
    const res = await mint(owner.apiKey, { content_hash: randomContentHash(), visibility: "private" });
    expect(res.status, res.text).toBe(201);
    const id = res.body.attestation_id;
    const attestation = await api(`/v1/attestations/${id}`, { key: owner.apiKey });
    expect(attestation.status, attestation.text).toBe(200);
    expect(attestation.body.payload.protection_id).toBe(res.body.protection_id);
    const bundle = await api(`/v1/attestations/${id}/proof-bundle`, { key: owner.apiKey });
    expect(bundle.status, bundle.text).toBe(200);
    expect(verifyProofBundle(bundle.body, { logPublicKey: await logKey() }).ok).toBe(true);
    const unknown = await api(`/v1/attestations/${crypto.randomUUID()}/proof-bundle`, { key: other.apiKey });
    expectProblem(unknown, 404, "not_found");
    for (const path of [`/v1/attestations/${id}`, `/v1/attestations/${id}/proof-bundle`]) {
      const foreign = await api(path, { key: other.apiKey });
      // The same answer but for the path it names and the request's own id.
      expect({ status: foreign.status, body: { ...foreign.body, detail: undefined, request_id: undefined } }).toEqual({
        status: 404,
        body: { ...unknown.body, detail: undefined, request_id: undefined },
      });
      expectProblem(await api(path, { key: (await seedOrg()).apiKey }), 404, "not_found");
    }
  });

  it("signs only cryptographic facts, and the proof bundle verifies offline", async () => {
    const { apiKey } = await seedConsumer();
    const hex = randomContentHash();
    const res = await mint(apiKey, {
      content_hash: hex,
      title: "Secret draft",
      description: "do not leak",
      file_name: "draft.txt",
      category: "writing",
    });
    expect(res.status, res.text).toBe(201);
    const bundle = await api(`/v1/consumer/protections/${res.body.protection_id}/proof-bundle`, { key: apiKey });
    expect(bundle.status, bundle.text).toBe(200);
    expect(bundle.body.attestation.id).toBe(res.body.attestation_id);
    expect(bundle.body.attestation.payload).toEqual({
      type: "hallmark.protection/v1",
      protection_id: res.body.protection_id,
      content_hash: `sha256:${hex}`,
      category: "writing",
    });
    expect(JSON.stringify(bundle.body)).not.toMatch(/Secret draft|do not leak|draft\.txt/);
    const result = verifyProofBundle(bundle.body, { logPublicKey: await logKey() });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    // Another account's protection is not found, exactly like an unknown one.
    const other = (await seedConsumer()).apiKey;
    expectProblem(await api(`/v1/consumer/protections/${res.body.protection_id}/proof-bundle`, { key: other }), 404, "not_found");
    expectProblem(await api(`/v1/consumer/protections/not-a-uuid/proof-bundle`, { key: apiKey }), 404, "not_found");
  });

  it("creates the personal issuer once when ten first mints race", async () => {
    const { apiKey } = await seedConsumer({ plan: "creator" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => mint(apiKey, { content_hash: randomContentHash() }, undefined, i % baseUrls.length)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(201);
    const bundles = await Promise.all(
      answers.map((a) => api(`/v1/consumer/protections/${a.body.protection_id}/proof-bundle`, { key: apiKey })),
    );
    expect(new Set(bundles.map((b) => b.body.issuer.id)).size).toBe(1);
    expect(new Set(bundles.map((b) => b.body.key.kid)).size).toBe(1);
    const later = await mint(apiKey, { content_hash: randomContentHash() });
    const again = await api(`/v1/consumer/protections/${later.body.protection_id}/proof-bundle`, { key: apiKey });
    expect(again.body.issuer.id).toBe(bundles[0]!.body.issuer.id);
  });

  it("rejects every invalid field with 422 and a pointer, and writes nothing", async () => {
    const { apiKey } = await seedConsumer();
    const h = randomContentHash();
    const cases: [unknown, string][] = [
      [{}, "/content_hash"],
      [{ content_hash: "abc" }, "/content_hash"],
      [{ content_hash: h + "0" }, "/content_hash"],
      [{ content_hash: "sha1:" + h }, "/content_hash"],
      [{ content_hash: 5 }, "/content_hash"],
      [{ content_hash: h, title: "x".repeat(201) }, "/title"],
      [{ content_hash: h, title: "" }, "/title"],
      [{ content_hash: h, description: "x".repeat(5001) }, "/description"],
      [{ content_hash: h, title: "a\u0000b" }, "/title"],
      [{ content_hash: h, description: "\u0000" }, "/description"],
      [{ content_hash: h, file_name: "f".repeat(256) }, "/file_name"],
      [{ content_hash: h, file_name: "a\nb" }, "/file_name"],
      [{ content_hash: h, content_type: "not a mime" }, "/content_type"],
      [{ content_hash: h, content_type: "a/" + "b".repeat(300) }, "/content_type"],
      [{ content_hash: h, file_size: -1 }, "/file_size"],
      [{ content_hash: h, file_size: 1.5 }, "/file_size"],
      [{ content_hash: h, file_size: 2 ** 53 }, "/file_size"],
      [{ content_hash: h, file_size: "12" }, "/file_size"],
      [{ content_hash: h, category: "poetry" }, "/category"],
      [{ content_hash: h, visibility: "secret" }, "/visibility"],
      [{ content_hash: h, ai_metadata: [1] }, "/ai_metadata"],
      [{ content_hash: h, ai_metadata: { blob: "x".repeat(17 * 1024) } }, "/ai_metadata"],
      [{ content_hash: h, protection_id: "x" }, "/protection_id"],
      [[h], ""],
    ];
    for (const [body, pointer] of cases) {
      const res = await mint(apiKey, body);
      expectProblem(res, 422, "validation_failed");
      expect(
        res.body.errors.map((e: { pointer: string }) => e.pointer),
        JSON.stringify(body).slice(0, 80),
      ).toContain(pointer);
    }
    expect(await used(apiKey)).toBe(0);
    expect((await api("/v1/consumer/protections", { key: apiKey })).body.total).toBe(0);
    // The largest values allowed pass.
    const ok = await mint(apiKey, {
      content_hash: h,
      title: "t".repeat(200),
      description: "d".repeat(5000),
      file_name: "n".repeat(255),
      content_type: "text/plain; charset=utf-8",
      file_size: Number.MAX_SAFE_INTEGER,
      ai_metadata: { tags: ["a", "b"], nested: { score: 0.5 } },
      category: "ai-output",
      visibility: "public",
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it("stores any text but U+0000 exactly, and a refused mint never fails the mints committed beside it", async () => {
    const { apiKey } = await seedConsumer();
    const odd = 'quote " backslash \\ braces {} comma , NULL emoji \u{1F600} tab\t line\nsep \u2028';
    const together = await Promise.all([
      ...Array.from({ length: 6 }, () =>
        mint(apiKey, { content_hash: randomContentHash(), title: odd, description: "NULL", visibility: "public" }),
      ),
      ...Array.from({ length: 3 }, () => mint(apiKey, { content_hash: randomContentHash(), title: "nul \u0000 inside" })),
    ]);
    expect(together.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 422, 422, 422]);
    const list = await api("/v1/consumer/protections?limit=100", { key: apiKey });
    expect(list.body.total).toBe(6);
    for (const item of list.body.items) expect(item).toMatchObject({ title: odd, description: "NULL" });
    expect(await used(apiKey)).toBe(6);
  });

  it("refuses an organisation key (403), no credentials (401) and other methods (405)", async () => {
    const org = (await seedOrg()).apiKey;
    expectProblem(await mint(org, { content_hash: randomContentHash() }), 403, "insufficient_scope");
    expectProblem(await api("/v1/consumer/protections", { key: org }), 403, "insufficient_scope");
    expectProblem(await api("/v1/consumer/usage", { key: org }), 403, "insufficient_scope");
    expectProblem(await api("/v1/consumer/mint", { json: { content_hash: randomContentHash() } }), 401, "unauthenticated");
    const get = await api("/v1/consumer/mint", { key: org });
    expectProblem(get, 405, "method_not_allowed");
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("Idempotency-Key on mint", () => {
  it("replays the first answer for the same key and body, without a second mint or quota use", async () => {
    const { apiKey } = await seedConsumer();
    const body = { content_hash: randomContentHash(), title: "once" };
    const first = await mint(apiKey, body, "retry-1");
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await mint(apiKey, { title: "once", content_hash: body.content_hash }, "retry-1");
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await used(apiKey)).toBe(1);
    expect((await api("/v1/consumer/protections", { key: apiKey })).body.total).toBe(1);
    // Same key, another body: 422, nothing minted.
    const other = await mint(apiKey, { content_hash: body.content_hash, title: "twice" }, "retry-1");
    expectProblem(other, 422, "idempotency_key_reused");
    expect(await used(apiKey)).toBe(1);
    // Keys are per account: another consumer's identical key mints afresh.
    const stranger = (await seedConsumer()).apiKey;
    const theirs = await mint(stranger, body, "retry-1");
    expect(theirs.status).toBe(201);
    expect(theirs.body.protection_id).not.toBe(first.body.protection_id);
  });

  it("mints once when retries with one key arrive together: every one gets the first answer", async () => {
    const { apiKey } = await seedConsumer();
    const body = { content_hash: randomContentHash() };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => mint(apiKey, body, "burst", i % baseUrls.length)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const ok = answers.filter((a) => a.headers.get("idempotent-replayed") !== "true");
    expect(ok).toHaveLength(1);
    for (const a of answers) expect(a.body).toEqual(ok[0]!.body);
    expect(await used(apiKey)).toBe(1);
    // The same key with another body, while or after: 422, never a second mint.
    const clash = await Promise.all([mint(apiKey, { content_hash: randomContentHash() }, "burst"), mint(apiKey, body, "burst")]);
    expectProblem(clash[0]!, 422, "idempotency_key_reused");
    expect(clash[1]!.body).toEqual(ok[0]!.body);
    const after = await mint(apiKey, body, "burst");
    expect(after.body).toEqual(ok[0]!.body);
    expect((await api("/v1/consumer/protections", { key: apiKey })).body.total).toBe(1);
  });

  it("bounds the key, and does not store failures", async () => {
    const { apiKey } = await seedConsumer();
    expectProblem(await mint(apiKey, { content_hash: randomContentHash() }, "k".repeat(256)), 400, "invalid_parameter");
    expectProblem(await mint(apiKey, { content_hash: "bad" }, "fail-then-fix"), 422, "validation_failed");
    const fixed = await mint(apiKey, { content_hash: randomContentHash() }, "fail-then-fix");
    expect(fixed.status, fixed.text).toBe(201);
    expect(await used(apiKey)).toBe(1);
  });
});
