// @hallmark-test db=sqlite,postgres lane=main
// Verification packs: GET /v1/attestation-packs (exactly the interface), templates created once
// under racing first accesses, custom packs (create, update, archive, clone), templates read-only.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrls, createKey, expectProblem } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

const LIST_FIELDS = [
  "id",
  "tenant_id",
  "name",
  "description",
  "category",
  "region",
  "status",
  "is_template",
  "verifications_count",
  "created_at",
  "updated_at",
].sort();
const TEMPLATE_KEYS = [
  "content-authenticity-baseline",
  "eu-ai-act-art50-disclosure",
  "newsroom-media-authenticity",
  "research-integrity",
  "source-code-provenance",
  "dataset-lineage",
  "design-ip-registration",
];
const RULES = { required_fields: ["content_hash", "category"], allowed_categories: ["media"], max_age_days: 7 };

const list = (key: string, query = "", instance = 0) => api(`/v1/attestation-packs${query}`, { key, instance });
const createPack = (key: string, body: unknown) => api("/v1/attestation-packs", { key, json: body });
const patch = (key: string, id: string, body: unknown) => api(`/v1/attestation-packs/${id}`, { key, method: "PATCH", json: body });

async function newPack(key: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await createPack(key, { name, description: `${name} policy`, category: "media", region: "EU", rules: RULES, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function templates(key: string) {
  const res = await list(key);
  expect(res.status, res.text).toBe(200);
  return res.body.items.filter((p: { is_template: boolean }) => p.is_template);
}

describe("attestation packs", () => {
  it("a new tenant's first list shows the built-in templates, each with exactly the interface's fields", async () => {
    const { apiKey, tenantId } = await seedOrg();
    const res = await list(apiKey);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["items", "total"]);
    expect(res.body.total).toBe(TEMPLATE_KEYS.length);
    expect(res.body.items).toHaveLength(TEMPLATE_KEYS.length);
    for (const p of res.body.items) {
      expect(Object.keys(p).sort()).toEqual(LIST_FIELDS);
      expect(p).toMatchObject({ tenant_id: tenantId, status: "active", is_template: true, verifications_count: 0 });
      expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
      for (const f of ["name", "description", "category", "region"]) expect(typeof p[f] === "string" && p[f].length > 0, f).toBe(true);
      expect(new Date(p.created_at).toISOString()).toBe(p.created_at);
      expect(new Date(p.updated_at).toISOString()).toBe(p.updated_at);
    }
    // In the fixed template order: the single reads name each one's template key.
    const keys = [];
    for (const p of res.body.items) keys.push((await api(`/v1/attestation-packs/${p.id}`, { key: apiKey })).body.metadata.template_key);
    expect(keys).toEqual(TEMPLATE_KEYS);
    const ai = res.body.items[1];
    expect(ai).toMatchObject({ name: expect.stringContaining("EU AI Act"), region: "EU" });
  });

  it("racing first accesses (on every instance) create each template exactly once", async () => {
    const { apiKey } = await seedOrg();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => list(apiKey, "", i % baseUrls.length)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const ids = answers.map((a) => a.body.items.map((p: { id: string }) => p.id).join(","));
    expect(new Set(ids).size).toBe(1);
    expect(answers[0]!.body.total).toBe(TEMPLATE_KEYS.length);
    expect(new Set(answers[0]!.body.items.map((p: { id: string }) => p.id)).size).toBe(TEMPLATE_KEYS.length);
    // And later accesses find the same rows.
    expect((await list(apiKey)).body.items.map((p: { id: string }) => p.id).join(",")).toBe(ids[0]);
  });

  it("lists templates first, then custom packs newest first; filters by status and kind, and pages", async () => {
    const { apiKey } = await seedOrg();
    const a = await newPack(apiKey, "Alpha");
    const b = await newPack(apiKey, "Bravo");
    const c = await newPack(apiKey, "Charlie");
    const res = await list(apiKey);
    expect(res.body.total).toBe(TEMPLATE_KEYS.length + 3);
    const items = res.body.items;
    expect(items.slice(0, TEMPLATE_KEYS.length).every((p: { is_template: boolean }) => p.is_template)).toBe(true);
    expect(items.slice(TEMPLATE_KEYS.length).map((p: { id: string }) => p.id)).toEqual([c.id, b.id, a.id]);
    for (const p of items) expect(Object.keys(p).sort()).toEqual(LIST_FIELDS);

    expect((await patch(apiKey, b.id, { status: "archived" })).status).toBe(200);
    const archived = await list(apiKey, "?status=archived");
    expect(archived.body).toMatchObject({ total: 1, items: [{ id: b.id, status: "archived" }] });
    const active = await list(apiKey, "?status=active");
    expect(active.body.total).toBe(TEMPLATE_KEYS.length + 2);
    expect(active.body.items.map((p: { id: string }) => p.id)).not.toContain(b.id);
    const custom = await list(apiKey, "?is_template=false");
    expect(custom.body.items.map((p: { id: string }) => p.id)).toEqual([c.id, b.id, a.id]);
    expect((await list(apiKey, "?is_template=true")).body.total).toBe(TEMPLATE_KEYS.length);

    // A page straddling templates and custom packs, then the last page.
    const page = await list(apiKey, `?limit=3&offset=${TEMPLATE_KEYS.length - 1}`);
    expect(page.body.total).toBe(TEMPLATE_KEYS.length + 3);
    expect(page.body.items.map((p: { id: string }) => p.id)).toEqual([items[TEMPLATE_KEYS.length - 1].id, c.id, b.id]);
    const last = await list(apiKey, `?limit=3&offset=${TEMPLATE_KEYS.length + 2}`);
    expect(last.body.items.map((p: { id: string }) => p.id)).toEqual([a.id]);
  });

  it("rejects bad list parameters with 400 and their names", async () => {
    const { apiKey } = await seedOrg();
    for (const [q, param] of [
      ["?status=deleted", "/status"],
      ["?is_template=yes", "/is_template"],
      ["?limit=0", "/limit"],
      ["?limit=101", "/limit"],
      ["?offset=-1", "/offset"],
    ] as const) {
      const res = await list(apiKey, q);
      expectProblem(res, 400, "invalid_parameter");
      expect(
        res.body.errors.map((e: { pointer: string }) => e.pointer),
        q,
      ).toEqual([param]);
    }
  });

  it("reads one pack with its rules, count, status and metadata", async () => {
    const { apiKey, tenantId } = await seedOrg();
    const [baseline] = await templates(apiKey);
    const res = await api(`/v1/attestation-packs/${baseline.id}`, { key: apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...baseline,
      rules: { required_fields: ["content_hash"], allowed_issuer_statuses: ["PENDING", "ACTIVE"], allowed_key_algorithms: ["Ed25519"] },
      metadata: { template_key: "content-authenticity-baseline", cloned_from: null, rules_version: 1, revision: 1 },
    });
    const made = await newPack(apiKey, "Delta");
    expect(made).toMatchObject({
      tenant_id: tenantId,
      name: "Delta",
      description: "Delta policy",
      category: "media",
      region: "EU",
      status: "active",
      is_template: false,
      verifications_count: 0,
      rules: RULES,
      metadata: { template_key: null, cloned_from: null, rules_version: 1, revision: 1 },
    });
    expect((await api(`/v1/attestation-packs/${made.id}`, { key: apiKey })).body).toEqual(made);
  });

  it("defaults description, category and region of a new pack; an empty rule set is allowed", async () => {
    const { apiKey } = await seedOrg();
    const res = await createPack(apiKey, { name: "  Crypto only  ", rules: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "Crypto only", description: "", category: "custom", region: "Global", rules: {} });
  });

  it("another tenant's pack answers 404 exactly like an unknown one, for every pack endpoint", async () => {
    const mine = (await seedOrg()).apiKey;
    const theirs = (await seedOrg()).apiKey;
    const [theirTemplate] = await templates(theirs);
    const theirCustom = await newPack(theirs, "Theirs");
    const unknown = randomUUID();
    for (const id of [theirTemplate.id, theirCustom.id, unknown, "not-a-uuid"]) {
      for (const res of [
        await api(`/v1/attestation-packs/${id}`, { key: mine }),
        await patch(mine, id, { name: "hijack" }),
        await api(`/v1/attestation-packs/${id}/clone`, { key: mine, json: {} }),
      ]) {
        expectProblem(res, 404, "not_found");
        expect(res.body.detail).toBe("Pack not found");
      }
    }
    expect((await api(`/v1/attestation-packs/${theirCustom.id}`, { key: theirs })).body.name).toBe("Theirs");
    expect((await list(mine)).body.items.map((p: { id: string }) => p.id)).not.toContain(theirCustom.id);
  });

  it("templates are read-only: PATCH answers 409 pack_read_only and changes nothing", async () => {
    const { apiKey } = await seedOrg();
    const all = await templates(apiKey);
    for (const body of [{ name: "Mine now" }, { status: "archived" }, { rules: {} }]) {
      const res = await patch(apiKey, all[2].id, body);
      expectProblem(res, 409, "pack_read_only");
      expect(res.body.detail).toContain("clone");
    }
    expect((await api(`/v1/attestation-packs/${all[2].id}`, { key: apiKey })).body).toMatchObject({
      name: all[2].name,
      status: "active",
      updated_at: all[2].updated_at,
    });
  });

  it("updates a custom pack's fields and rules, counting revisions; archives and reactivates it", async () => {
    const { apiKey } = await seedOrg();
    const p = await newPack(apiKey, "Echo");
    const upd = await patch(apiKey, p.id, {
      name: "Echo 2",
      description: "new",
      category: "research",
      region: "US",
      rules: { min_trust_level: "VERIFIED" },
    });
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body).toMatchObject({
      name: "Echo 2",
      description: "new",
      category: "research",
      region: "US",
      rules: { min_trust_level: "VERIFIED" },
      metadata: { revision: 2 },
    });
    expect(upd.body.updated_at > p.updated_at || upd.body.updated_at === p.updated_at).toBe(true);
    expect(upd.body.created_at).toBe(p.created_at);
    // Nothing changed: no new revision.
    expect((await patch(apiKey, p.id, { name: "Echo 2" })).body.metadata.revision).toBe(2);
    const arch = await patch(apiKey, p.id, { status: "archived" });
    expect(arch.body).toMatchObject({ status: "archived", metadata: { revision: 3 } });
    const back = await patch(apiKey, p.id, { status: "active" });
    expect(back.body).toMatchObject({ status: "active", metadata: { revision: 4 } });
  });

  it("clones a template or a custom pack into a new custom pack", async () => {
    const { apiKey } = await seedOrg();
    const all = await templates(apiKey);
    const ai = await api(`/v1/attestation-packs/${all[1].id}`, { key: apiKey });
    const res = await api(`/v1/attestation-packs/${all[1].id}/clone`, { key: apiKey, json: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: `${ai.body.name} (copy)`,
      description: ai.body.description,
      category: ai.body.category,
      region: "EU",
      status: "active",
      is_template: false,
      verifications_count: 0,
      rules: ai.body.rules,
      metadata: { template_key: null, cloned_from: all[1].id, revision: 1 },
    });
    expect(res.body.id).not.toBe(all[1].id);
    // The copy is editable; the template is untouched.
    expect((await patch(apiKey, res.body.id, { rules: { ...ai.body.rules, max_age_days: 90 } })).status).toBe(200);
    expect((await api(`/v1/attestation-packs/${all[1].id}`, { key: apiKey })).body.rules).toEqual(ai.body.rules);

    const named = await api(`/v1/attestation-packs/${res.body.id}/clone`, { key: apiKey, json: { name: "Our AI policy" } });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({
      name: "Our AI policy",
      rules: { ...ai.body.rules, max_age_days: 90 },
      metadata: { cloned_from: res.body.id },
    });
    const listed = (await list(apiKey)).body.items.map((p: { id: string }) => p.id);
    expect(listed.slice(TEMPLATE_KEYS.length)).toEqual([named.body.id, res.body.id]);
  });

  it("answers every validation failure with 422 and a pointer per problem", async () => {
    const { apiKey } = await seedOrg();
    const cases: [unknown, string[]][] = [
      [{}, ["/name", "/rules"]],
      [{ name: "", rules: {} }, ["/name"]],
      [{ name: "   ", rules: {} }, ["/name"]],
      [{ name: "x".repeat(201), rules: {} }, ["/name"]],
      [{ name: 5, rules: {} }, ["/name"]],
      [{ name: "x", description: "d".repeat(2001), rules: {} }, ["/description"]],
      [{ name: "x", category: "", region: "r".repeat(65), rules: {} }, ["/category", "/region"]],
      [{ name: "x", rules: {}, status: "active" }, ["/status"]],
      [{ name: "x", rules: {}, extra: 1 }, ["/extra"]],
      [{ name: "x", rules: [] }, ["/rules"]],
      [{ name: "x", rules: { unknown_rule: true } }, ["/rules/unknown_rule"]],
      [{ name: "x", rules: { required_fields: [] } }, ["/rules/required_fields"]],
      [{ name: "x", rules: { required_fields: ["a b"] } }, ["/rules/required_fields/0"]],
      [{ name: "x", rules: { required_fields: ["a", "a"] } }, ["/rules/required_fields"]],
      [{ name: "x", rules: { field_equals: [{ field: "type", value: { no: 1 } }] } }, ["/rules/field_equals/0/value"]],
      [{ name: "x", rules: { field_equals: [{ field: "type" }] } }, ["/rules/field_equals/0/value"]],
      [{ name: "x", rules: { allowed_categories: [""] } }, ["/rules/allowed_categories/0"]],
      [{ name: "x", rules: { min_trust_level: "GOLD" } }, ["/rules/min_trust_level"]],
      [{ name: "x", rules: { allowed_issuer_statuses: ["REVOKED"] } }, ["/rules/allowed_issuer_statuses/0"]],
      [{ name: "x", rules: { allowed_key_algorithms: ["RSA"] } }, ["/rules/allowed_key_algorithms/0"]],
      [{ name: "x", rules: { max_age_days: 0 } }, ["/rules/max_age_days"]],
      [{ name: "x", rules: { max_age_days: 2.5 } }, ["/rules/max_age_days"]],
      [{ name: "x", rules: { required_visibility: "unlisted" } }, ["/rules/required_visibility"]],
      [{ name: "x", rules: { require_content_hash_match: "yes" } }, ["/rules/require_content_hash_match"]],
      [[], [""]],
    ];
    for (const [body, pointers] of cases) {
      const res = await createPack(apiKey, body);
      expectProblem(res, 422, "validation_failed");
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort(), JSON.stringify(body)).toEqual(pointers.sort());
      for (const e of res.body.errors) expect(e.detail.length).toBeGreaterThan(0);
    }
    const p = await newPack(apiKey, "Foxtrot");
    const patches: [unknown, string[]][] = [
      [{}, [""]],
      [{ status: "deleted" }, ["/status"]],
      [{ name: "" }, ["/name"]],
      [{ rules: { max_age_days: -1 } }, ["/rules/max_age_days"]],
      [{ is_template: true }, ["/is_template"]],
      [{ verifications_count: 0 }, ["/verifications_count"]],
      ["x", [""]],
    ];
    for (const [body, pointers] of patches) {
      const res = await patch(apiKey, p.id, body);
      expectProblem(res, 422, "validation_failed");
      expect(
        res.body.errors.map((e: { pointer: string }) => e.pointer),
        JSON.stringify(body),
      ).toEqual(pointers);
    }
    for (const [body, pointers] of [
      [{ name: "" }, ["/name"]],
      [{ rules: {} }, ["/rules"]],
    ] as const) {
      const res = await api(`/v1/attestation-packs/${p.id}/clone`, { key: apiKey, json: body });
      expectProblem(res, 422, "validation_failed");
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(pointers);
    }
    // Not JSON: 415, for every body-taking endpoint.
    for (const [path, method] of [
      ["/v1/attestation-packs", "POST"],
      [`/v1/attestation-packs/${p.id}`, "PATCH"],
      [`/v1/attestation-packs/${p.id}/clone`, "POST"],
    ] as const) {
      expectProblem(
        await api(path, { key: apiKey, method, raw: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }),
        415,
        "unsupported_media_type",
      );
      expectProblem(
        await api(path, { key: apiKey, method, raw: "{not json", headers: { "content-type": "application/json" } }),
        415,
        "malformed_json",
      );
    }
    expect((await api(`/v1/attestation-packs/${p.id}`, { key: apiKey })).body).toMatchObject({
      name: "Foxtrot",
      metadata: { revision: 1 },
    });
  });

  it("needs packs:read to list and read, packs:write to change; consumers hold neither", async () => {
    const { apiKey } = await seedOrg();
    const [t] = await templates(apiKey);
    const reader = await createKey(apiKey, ["packs:read"]);
    const nobody = await createKey(apiKey, ["attestations:read"]);
    expect((await list(reader.key)).status).toBe(200);
    expectProblem(await createPack(reader.key, { name: "x", rules: {} }), 403, "insufficient_scope");
    expectProblem(await api(`/v1/attestation-packs/${t.id}/clone`, { key: reader.key, json: {} }), 403, "insufficient_scope");
    expectProblem(await list(nobody.key), 403, "insufficient_scope");
    expectProblem(await api(`/v1/attestation-packs/${t.id}`, { key: nobody.key }), 403, "insufficient_scope");
    const consumer = await seedConsumer();
    expectProblem(await list(consumer.apiKey), 403, "insufficient_scope");
    expectProblem(await list(""), 401, "unauthenticated");
  });

  it("answers 405 with Allow for methods a pack route does not serve", async () => {
    const { apiKey } = await seedOrg();
    const [t] = await templates(apiKey);
    const del = await api(`/v1/attestation-packs/${t.id}`, { key: apiKey, method: "DELETE" });
    expectProblem(del, 405, "method_not_allowed");
    expect(del.headers.get("allow")).toBe("GET, PATCH, HEAD");
    const put = await api("/v1/attestation-packs", { key: apiKey, method: "PUT" });
    expect(put.headers.get("allow")).toBe("GET, POST, HEAD");
    const get = await api(`/v1/attestation-packs/${t.id}/clone`, { key: apiKey });
    expect(get.headers.get("allow")).toBe("POST");
  });
});
