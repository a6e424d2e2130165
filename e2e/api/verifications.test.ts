// @hallmark-test db=sqlite,postgres lane=main
// POST /v1/verifications: lib/verify's checks plus a pack's rules, each with pass or fail and a
// reason; exact counts under concurrency; recorded per tenant.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, attest, baseUrl, baseUrls, createKey, expectProblem, mint, orgWithIssuer, randomContentHash } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";
import { strangersBundle } from "../public-log";

const CRYPTO = ["checkpoint_signature", "inclusion", "attestation_signature", "key_validity"];
const VIEW_FIELDS = [
  "id",
  "result",
  "checks",
  "pack",
  "attestation_id",
  "protection_id",
  "entry_kind",
  "source",
  "content_hash",
  "created_at",
].sort();

type Check = { name: string; result: "pass" | "fail"; reason: string };
const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

async function packsOf(key: string): Promise<Record<string, { id: string; name: string; verifications_count: number }>> {
  const res = await api("/v1/attestation-packs", { key });
  expect(res.status, res.text).toBe(200);
  const out: Record<string, { id: string; name: string; verifications_count: number }> = {};
  for (const p of res.body.items) {
    if (!p.is_template) continue;
    const one = await api(`/v1/attestation-packs/${p.id}`, { key });
    out[one.body.metadata.template_key] = p;
  }
  return out;
}

const verify = (key: string, body: unknown, instance = 0) => api("/v1/verifications", { key, json: body, instance });

async function publicProtection(category = "design", visibility = "public") {
  const consumer = await seedConsumer();
  const hash = randomContentHash();
  const m = await mint(consumer.apiKey, { content_hash: hash, category, visibility, title: "Poster" });
  expect(m.status, m.text).toBe(201);
  // The owner's key: a private protection's bundle is its owner's to hand over.
  const bundle = await api(`/v1/protections/${m.body.protection_id}/proof-bundle`, { key: consumer.apiKey });
  expect(bundle.status, bundle.text).toBe(200);
  return {
    consumer,
    hash,
    protectionId: m.body.protection_id as string,
    attestationId: m.body.attestation_id as string,
    bundle: bundle.body,
  };
}

describe("verifications", () => {
  it("verifies a real attestation against a template: every check passes with its reason, and the pack counts it", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const hash = randomContentHash();
    const a = await attest(key, issuerId, { content_hash: `sha256:${hash}`, category: "ai-output", model: "acme-gen-2" });
    const packs = await packsOf(key);
    const ai = packs["eu-ai-act-art50-disclosure"]!;
    const res = await verify(key, { attestation_id: a.id, pack_id: ai.id });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(VIEW_FIELDS);
    expect(res.body).toMatchObject({
      result: "pass",
      pack: { id: ai.id, name: ai.name, revision: 1, verifications_count: 1 },
      attestation_id: a.id,
      protection_id: null,
      entry_kind: "open",
      source: "attestation",
      content_hash: null,
    });
    expect(res.body.checks.map((c: Check) => c.name)).toEqual([
      ...CRYPTO,
      "required_fields",
      "allowed_categories",
      "allowed_issuer_statuses",
      "allowed_key_algorithms",
    ]);
    for (const c of res.body.checks) expect(c.result, `${c.name}: ${c.reason}`).toBe("pass");
    const c = byName(res.body.checks);
    expect(c.inclusion!.reason).toMatch(/^attestation is leaf \d+ of \d+$/);
    expect(c.attestation_signature!.reason).toBe(`signed by key ${a.kid} of issuer ${issuerId}`);
    expect(c.required_fields!.reason).toBe("payload has content_hash, category");
    expect(c.allowed_categories!.reason).toBe("category ai-output is allowed");
    expect(c.allowed_issuer_statuses!.reason).toBe("issuer status PENDING is allowed");
    expect(c.allowed_key_algorithms!.reason).toBe("key algorithm Ed25519 is allowed");

    // The count is on the list item and on the single read; other packs are untouched.
    const after = await api(`/v1/attestation-packs/${ai.id}`, { key });
    expect(after.body.verifications_count).toBe(1);
    const listed = (await api("/v1/attestation-packs", { key })).body.items;
    expect(listed.find((p: { id: string }) => p.id === ai.id).verifications_count).toBe(1);
    expect(listed.filter((p: { verifications_count: number }) => p.verifications_count > 0)).toHaveLength(1);

    // Recorded for the tenant.
    const read = await api(`/v1/verifications/${res.body.id}`, { key });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("answers each failing rule with its reason; the attestation's own facts decide", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId, { content_hash: `sha256:${randomContentHash()}`, category: "code" });
    const packs = await packsOf(key);
    const news = await verify(key, {
      attestation_id: a.id,
      pack_id: packs["newsroom-media-authenticity"]!.id,
      content_hash: randomContentHash(),
    });
    expect(news.status, news.text).toBe(201);
    expect(news.body.result).toBe("fail");
    const c = byName(news.body.checks);
    for (const n of CRYPTO) expect(c[n]!.result).toBe("pass");
    expect(c.required_fields).toMatchObject({ result: "pass" });
    expect(c.allowed_categories).toEqual({
      name: "allowed_categories",
      result: "fail",
      reason: "category code is not one of media, digital-art",
    });
    expect(c.min_trust_level).toEqual({ name: "min_trust_level", result: "fail", reason: "issuer trust level BASIC is below VERIFIED" });
    expect(c.allowed_issuer_statuses).toEqual({
      name: "allowed_issuer_statuses",
      result: "fail",
      reason: "issuer status PENDING is not one of ACTIVE",
    });
    expect(c.max_age_days).toMatchObject({ result: "pass", reason: "attested less than a day ago, within 30 days" });
    expect(c.content_hash_match).toEqual({
      name: "content_hash_match",
      result: "fail",
      reason: "the content hash sent differs from the attested content_hash",
    });

    // The same pack without the file's hash: the check says the pack needs it.
    const noHash = await verify(key, { attestation_id: a.id, pack_id: packs["source-code-provenance"]!.id });
    expect(byName(noHash.body.checks).content_hash_match).toMatchObject({
      result: "fail",
      reason: expect.stringContaining("requires the content hash"),
    });
    expect(noHash.body.result).toBe("fail");
    // No pack: only the cryptographic checks.
    const bare = await verify(key, { attestation_id: a.id });
    expect(bare.body).toMatchObject({ result: "pass", pack: null });
    expect(bare.body.checks.map((x: Check) => x.name)).toEqual(CRYPTO);
  });

  it("verifies a creator's protection from its public bundle, and counts it on the protection", async () => {
    const p = await publicProtection("design", "public");
    const { apiKey: key } = await seedOrg();
    const packs = await packsOf(key);
    const ip = packs["design-ip-registration"]!;
    const res = await verify(key, { bundle: p.bundle, pack_id: ip.id, content_hash: `sha256:${p.hash.toUpperCase()}` });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      result: "pass",
      attestation_id: p.attestationId,
      protection_id: p.protectionId,
      source: "bundle",
      content_hash: p.hash,
    });
    const c = byName(res.body.checks);
    expect(Object.keys(c)).toEqual([
      ...CRYPTO,
      "required_fields",
      "allowed_categories",
      "allowed_issuer_statuses",
      "allowed_key_algorithms",
      "required_visibility",
      "content_hash_match",
    ]);
    expect(c.required_visibility!.reason).toBe("the protection is public");
    expect(c.content_hash_match!.reason).toBe("the content hash sent equals the attested content_hash");
    for (const x of res.body.checks) expect(x.result, `${x.name}: ${x.reason}`).toBe("pass");
    expect((await api(`/v1/protections/${p.protectionId}`)).body.verification_count).toBe(1);

    // A private protection, its bundle handed over by its owner: the opening and both signatures
    // verify, but to another organisation it is no protection at all: not named, not counted, and
    // the visibility rule fails in the words it uses for a protection with no record here.
    const priv = await publicProtection("design", "private");
    const res2 = await verify(key, { bundle: priv.bundle, pack_id: ip.id, content_hash: priv.hash });
    expect(res2.body).toMatchObject({ result: "fail", protection_id: null, entry_kind: "opened", attestation_id: priv.attestationId });
    expect(res2.body.checks.slice(0, 6).map((x: Check) => `${x.name}:${x.result}`)).toEqual(
      ["checkpoint_signature", "seal_opening", "inclusion", "seal_signature", "attestation_signature", "key_validity"].map(
        (n) => `${n}:pass`,
      ),
    );
    expect(byName(res2.body.checks).required_visibility).toEqual({
      name: "required_visibility",
      result: "fail",
      reason: "no protection this account may see is this attestation: a private one is its owner's alone",
    });
    const own = await api(`/v1/protections/${priv.protectionId}`, { key: priv.consumer.apiKey });
    expect(own.body.verification_count).toBe(0);
  });

  it("a sealed leaf from the log's tiles verifies as a sealed entry that names nothing and counts nothing", async () => {
    const priv = await publicProtection("design", "private");
    const { apiKey: key } = await seedOrg();
    const ip = (await packsOf(key))["design-ip-registration"]!;
    // Only public parts: the sealed leaf from the entry bundles, the sealing key, a proof computed from the tiles.
    const bundle = await strangersBundle(baseUrl, priv.bundle.attestation.log_index);
    expect((bundle.attestation as { payload: { type: string } }).payload.type).toBe("hallmark.sealed/v2");
    const bare = await verify(key, { bundle });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body).toMatchObject({ result: "pass", entry_kind: "sealed", attestation_id: null, protection_id: null, source: "bundle" });
    expect(bare.body.checks.map((c: Check) => c.name)).toEqual([...CRYPTO, "sealed_entry"]);
    expect(byName(bare.body.checks).sealed_entry!.reason).toContain("whose content is its owner's");
    const withPack = await verify(key, { bundle, pack_id: ip.id, content_hash: priv.hash });
    expect(withPack.body).toMatchObject({ result: "fail", entry_kind: "sealed", attestation_id: null, protection_id: null });
    expect(byName(withPack.body.checks).required_visibility!.reason).toMatch(/^not evaluated: a sealed entry/);
    // The hash sent is compared with nothing it could confirm: the sealed payload has no content_hash.
    expect(byName(withPack.body.checks).content_hash_match!.reason).toContain("no content_hash");
    const own = await api(`/v1/protections/${priv.protectionId}`, { key: priv.consumer.apiKey });
    expect(own.body.verification_count).toBe(0);
    // The record says the same when read back.
    const read = await api(`/v1/verifications/${bare.body.id}`, { key });
    expect(read.body).toMatchObject({ entry_kind: "sealed", attestation_id: null, protection_id: null });
  });

  it("names a protection made private after it was verified to no one but its owner, in new runs and in the record", async () => {
    const p = await publicProtection("design", "public");
    const { apiKey: key } = await seedOrg();
    const first = await verify(key, { bundle: p.bundle });
    expect(first.body).toMatchObject({ protection_id: p.protectionId, entry_kind: "open" });
    const hidden = await api(`/v1/consumer/protections/${p.protectionId}`, {
      key: p.consumer.apiKey,
      method: "PATCH",
      json: { visibility: "private" },
    });
    expect(hidden.status, hidden.text).toBe(200);
    // Its entry stays open in the log (it was published), but the protection is no one's business now.
    const again = await verify(key, { bundle: await strangersBundle(baseUrl, p.bundle.attestation.log_index) });
    expect(again.body).toMatchObject({ result: "pass", entry_kind: "open", protection_id: null, attestation_id: p.attestationId });
    expect((await api(`/v1/verifications/${first.body.id}`, { key })).body.protection_id).toBeNull();
    const listed = await api("/v1/verifications?limit=10", { key });
    expect(listed.body.items.map((v: { protection_id: string | null }) => v.protection_id)).toEqual([null, null]);
    expect((await api(`/v1/protections/${p.protectionId}`, { key: p.consumer.apiKey })).body.verification_count).toBe(1);
  });

  it("rules never trust a bundle's unsigned issuer object: the log's own record decides", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId, { content_hash: `sha256:${randomContentHash()}`, category: "media" });
    const bundle = (await api(`/v1/attestations/${a.id}/proof-bundle`, { key })).body;
    bundle.issuer.trust_level = "HIGH";
    bundle.issuer.status = "ACTIVE";
    const other = (await seedOrg()).apiKey;
    const strict = await api("/v1/attestation-packs", {
      key: other,
      json: { name: "Strict", rules: { min_trust_level: "VERIFIED", allowed_issuer_statuses: ["ACTIVE"] } },
    });
    const res = await verify(other, { bundle, pack_id: strict.body.id });
    expect(res.status, res.text).toBe(201);
    const c = byName(res.body.checks);
    for (const n of CRYPTO) expect(c[n]!.result, c[n]!.reason).toBe("pass");
    expect(c.min_trust_level!.reason).toBe("issuer trust level BASIC is below VERIFIED");
    expect(c.allowed_issuer_statuses!.reason).toBe("issuer status PENDING is not one of ACTIVE");
    expect(res.body).toMatchObject({ result: "fail", source: "bundle", attestation_id: a.id, protection_id: null });
  });

  it("a tampered or forged bundle fails with the cryptographic check's reason; its rules are not evaluated", async () => {
    const p = await publicProtection("design", "public");
    const { apiKey: key } = await seedOrg();
    const ip = (await packsOf(key))["design-ip-registration"]!;
    const before = (await api(`/v1/protections/${p.protectionId}`)).body.verification_count;

    const tampered = structuredClone(p.bundle);
    tampered.attestation.payload.category = "code";
    const res = await verify(key, { bundle: tampered, pack_id: ip.id, content_hash: p.hash });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      result: "fail",
      protection_id: null,
      attestation_id: p.attestationId,
      pack: { id: ip.id, verifications_count: 1 },
    });
    const c = byName(res.body.checks);
    expect(c.checkpoint_signature!.result).toBe("pass");
    expect(c.inclusion).toEqual({ name: "inclusion", result: "fail", reason: "the attestation is not at log_index in the signed tree" });
    expect(c.attestation_signature).toEqual({ name: "attestation_signature", result: "fail", reason: "not run: inclusion failed" });
    expect(c.key_validity!.result).toBe("fail");
    for (const n of ["required_fields", "allowed_categories", "required_visibility", "content_hash_match"]) {
      expect(c[n]).toMatchObject({ result: "fail", reason: expect.stringContaining("not evaluated") });
    }
    // Nothing about the protection is counted for a bundle that did not verify.
    expect((await api(`/v1/protections/${p.protectionId}`)).body.verification_count).toBe(before);

    const forgedHead = structuredClone(p.bundle);
    forgedHead.signed_tree_head.checkpoint = forgedHead.signed_tree_head.checkpoint.replace(
      /\n(\d+)\n/,
      (_m: string, n: string) => `\n${Number(n) + 1}\n`,
    );
    const res2 = await verify(key, { bundle: forgedHead });
    expect(res2.body.result).toBe("fail");
    expect(res2.body.checks[0]).toMatchObject({ name: "checkpoint_signature", result: "fail" });
    expect(res2.body.checks[0].reason.length).toBeGreaterThan(10);
    expect(res2.body.checks.slice(1).map((x: Check) => x.reason)).toEqual([
      "not run: checkpoint_signature failed",
      "not run: checkpoint_signature failed",
      "not run: checkpoint_signature failed",
    ]);

    const junk = await verify(key, { bundle: { hello: "world" } });
    expect(junk.status).toBe(201);
    expect(junk.body).toMatchObject({ result: "fail", attestation_id: null });
    expect(junk.body.checks[0]).toEqual({ name: "checkpoint_signature", result: "fail", reason: "attestation must be an object" });
  });

  it("counts concurrent verifications exactly: each on the pack, each verifying organisation once on the protection", async () => {
    const p = await publicProtection("digital-art", "public");
    const { apiKey: key } = await seedOrg();
    const ip = (await packsOf(key))["design-ip-registration"]!;
    const N = 20;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => verify(key, { bundle: p.bundle, pack_id: ip.id, content_hash: p.hash }, i % baseUrls.length)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(201);
    for (const a of answers) expect(a.body.result, JSON.stringify(a.body.checks)).toBe("pass");
    // Each answer saw its own increment: the counts it reports are 1..N, once each.
    expect(answers.map((a) => a.body.pack.verifications_count).sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect((await api(`/v1/attestation-packs/${ip.id}`, { key })).body.verifications_count).toBe(N);
    // One organisation posting the same public bundle again and again is one verifier.
    expect((await api(`/v1/protections/${p.protectionId}`)).body.verification_count).toBe(1);
    const recorded = await api(`/v1/verifications?pack_id=${ip.id}&limit=100`, { key });
    expect(recorded.body.total).toBe(N);
    // Three more organisations, each verifying it three times at once, with a pack or without.
    const others = await Promise.all([seedOrg(), seedOrg(), seedOrg()]);
    const more = await Promise.all(
      others.flatMap((o, j) =>
        Array.from({ length: 3 }, (_, i) =>
          verify(o.apiKey, i === 0 ? { bundle: p.bundle } : { bundle: p.bundle, content_hash: p.hash }, (i + j) % baseUrls.length),
        ),
      ),
    );
    for (const a of more) expect(a.status, a.text).toBe(201);
    expect((await api(`/v1/protections/${p.protectionId}`)).body.verification_count).toBe(4);
    const own = await api("/v1/consumer/protections", { key: p.consumer.apiKey });
    expect(own.body.items[0].verification_count).toBe(4);
  });

  it("another tenant's attestation or pack is 404, exactly like an unknown one", async () => {
    const mine = await orgWithIssuer();
    const theirs = await orgWithIssuer();
    const theirAttestation = await attest(theirs.key, theirs.issuerId);
    const theirPack = (await packsOf(theirs.key))["content-authenticity-baseline"]!;
    const myAttestation = await attest(mine.key, mine.issuerId);
    for (const body of [{ attestation_id: theirAttestation.id }, { attestation_id: randomUUID() }]) {
      const res = await verify(mine.key, body);
      expectProblem(res, 404, "not_found");
      expect(res.body.detail).toBe("Attestation not found");
    }
    for (const body of [
      { attestation_id: myAttestation.id, pack_id: theirPack.id },
      { attestation_id: myAttestation.id, pack_id: randomUUID() },
    ]) {
      const res = await verify(mine.key, body);
      expectProblem(res, 404, "not_found");
      expect(res.body.detail).toBe("Pack not found");
    }
    expect((await api(`/v1/attestation-packs/${theirPack.id}`, { key: theirs.key })).body.verifications_count).toBe(0);
    // Their recorded verification is not mine to read.
    const theirRun = await verify(theirs.key, { attestation_id: theirAttestation.id });
    expectProblem(await api(`/v1/verifications/${theirRun.body.id}`, { key: mine.key }), 404, "not_found");
    expect((await api("/v1/verifications", { key: mine.key })).body.total).toBe(0);
  });

  it("an archived pack cannot verify (409 pack_archived) and is not counted; reactivated, it can", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId, { content_hash: `sha256:${randomContentHash()}` });
    const pack = await api("/v1/attestation-packs", { key, json: { name: "Temp", rules: { required_fields: ["content_hash"] } } });
    expect((await api(`/v1/attestation-packs/${pack.body.id}`, { key, method: "PATCH", json: { status: "archived" } })).status).toBe(200);
    const res = await verify(key, { attestation_id: a.id, pack_id: pack.body.id });
    expectProblem(res, 409, "pack_archived");
    expect((await api(`/v1/attestation-packs/${pack.body.id}`, { key })).body.verifications_count).toBe(0);
    expect((await api("/v1/verifications", { key })).body.total).toBe(0);
    await api(`/v1/attestation-packs/${pack.body.id}`, { key, method: "PATCH", json: { status: "active" } });
    const ok = await verify(key, { attestation_id: a.id, pack_id: pack.body.id });
    expect(ok.body).toMatchObject({ result: "pass", pack: { id: pack.body.id, revision: 3, verifications_count: 1 } });
  });

  it("lists the tenant's verifications newest first, filtered by pack and result", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId, { content_hash: `sha256:${randomContentHash()}`, category: "dataset" });
    const packs = await packsOf(key);
    const runs = [];
    runs.push((await verify(key, { attestation_id: a.id, pack_id: packs["dataset-lineage"]!.id })).body); // fail: no hash
    runs.push((await verify(key, { attestation_id: a.id })).body); // pass
    runs.push(
      (
        await verify(key, {
          attestation_id: a.id,
          pack_id: packs["dataset-lineage"]!.id,
          content_hash: a.id.replace(/-/g, "").padEnd(64, "0"),
        })
      ).body,
    );
    const all = await api("/v1/verifications", { key });
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((v: { id: string }) => v.id)).toEqual(runs.map((r) => r.id).reverse());
    for (const v of all.body.items) expect(Object.keys(v).sort()).toEqual(VIEW_FIELDS);
    const byPack = await api(`/v1/verifications?pack_id=${packs["dataset-lineage"]!.id}`, { key });
    expect(byPack.body.items.map((v: { id: string }) => v.id)).toEqual([runs[2].id, runs[0].id]);
    expect(byPack.body.items[0].pack.verifications_count).toBe(2);
    const passed = await api("/v1/verifications?result=pass", { key });
    expect(passed.body.items.map((v: { id: string }) => v.id)).toEqual([runs[1].id]);
    const paged = await api("/v1/verifications?limit=1&offset=1", { key });
    expect(paged.body).toMatchObject({ total: 3, items: [{ id: runs[1].id }] });
    for (const q of ["?pack_id=x", "?result=maybe", "?limit=0", "?offset=x"])
      expectProblem(await api(`/v1/verifications${q}`, { key }), 400, "invalid_parameter");
    expectProblem(await api(`/v1/verifications/${randomUUID()}`, { key }), 404, "not_found");
    expectProblem(await api("/v1/verifications/nope", { key }), 404, "not_found");
  });

  it("answers every validation failure with 422 and a pointer per problem", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId);
    const cases: [unknown, string[]][] = [
      [{}, ["/attestation_id"]],
      [{ pack_id: randomUUID() }, ["/attestation_id"]],
      [{ attestation_id: a.id, bundle: {} }, ["/bundle"]],
      [{ attestation_id: "abc" }, ["/attestation_id"]],
      [{ attestation_id: a.id, pack_id: "abc" }, ["/pack_id"]],
      [{ attestation_id: a.id, content_hash: "sha256:xyz" }, ["/content_hash"]],
      [{ attestation_id: a.id, content_hash: 5 }, ["/content_hash"]],
      [{ bundle: [] }, ["/bundle"]],
      [{ bundle: "text" }, ["/bundle"]],
      [{ attestation_id: a.id, verbose: true }, ["/verbose"]],
      [[], [""]],
    ];
    for (const [body, pointers] of cases) {
      const res = await verify(key, body);
      expectProblem(res, 422, "validation_failed");
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), JSON.stringify(body)).toEqual(pointers);
    }
    expectProblem(
      await api("/v1/verifications", { key, raw: "attestation_id=x", headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    expectProblem(
      await api("/v1/verifications", { key, raw: "{", headers: { "content-type": "application/json" } }),
      415,
      "malformed_json",
    );
    expect((await api("/v1/verifications", { key })).body.total).toBe(0);
  });

  it("needs verifications:write to run and verifications:read to read; consumers hold neither", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const a = await attest(key, issuerId);
    const reader = await createKey(key, ["verifications:read", "packs:read"]);
    expectProblem(await verify(reader.key, { attestation_id: a.id }), 403, "insufficient_scope");
    const runner = await createKey(key, ["verifications:write"]);
    expect((await verify(runner.key, { attestation_id: a.id })).status).toBe(201);
    expectProblem(await api("/v1/verifications", { key: runner.key }), 403, "insufficient_scope");
    expect((await api("/v1/verifications", { key: reader.key })).body.total).toBe(1);
    const consumer = await seedConsumer();
    expectProblem(await verify(consumer.apiKey, { attestation_id: a.id }), 403, "insufficient_scope");
    const put = await api("/v1/verifications", { key, method: "PUT" });
    expectProblem(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toBe("GET, POST, HEAD");
  });
});
