import { describe, expect, it } from "vitest";
import { evaluateRules, fieldAt, normaliseContentHash, ruleCheckNames, ZPackRules, type RuleFacts } from "./pack-rules";
import { PACK_TEMPLATES } from "./pack-templates";

const HEX = "ab".repeat(32);
const now = new Date("2026-06-01T12:00:00.000Z");
const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  payload: {
    type: "hallmark.protection/v1",
    protection_id: "p1",
    content_hash: `sha256:${HEX}`,
    category: "design",
    meta: { source: { url: "https://x" } },
  },
  createdAt: new Date("2026-05-31T12:00:00.000Z"),
  issuer: { status: "ACTIVE", trustLevel: "BASIC" },
  keyAlgorithm: "Ed25519",
  protection: { id: "p1", visibility: "public" },
  sealed: false,
  contentHash: null,
  now,
  ...over,
});
const byName = (checks: { name: string; result: string; reason: string }[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe("pack rule language", () => {
  it("validates rules strictly, with the path of each problem", () => {
    expect(ZPackRules.safeParse({}).success).toBe(true);
    const bad = ZPackRules.safeParse({
      required_fields: [],
      min_trust_level: "GOLD",
      max_age_days: 1.5,
      allowed_issuer_statuses: ["ACTIVE", "ACTIVE"],
      field_equals: [{ field: "a b", value: {} }],
      surprise: true,
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join("/"));
    expect(paths).toEqual(
      expect.arrayContaining([
        "required_fields",
        "min_trust_level",
        "max_age_days",
        "allowed_issuer_statuses",
        "field_equals/0/field",
        "field_equals/0/value",
        "",
      ]),
    );
  });

  it("every built-in template is valid rule data with a description, category and region", () => {
    expect(PACK_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(PACK_TEMPLATES.map((t) => t.key)).size).toBe(PACK_TEMPLATES.length);
    for (const t of PACK_TEMPLATES) {
      expect(ZPackRules.parse(t.rules)).toEqual(t.rules);
      expect(t.description.length).toBeGreaterThan(40);
      expect(t.category && t.region).toBeTruthy();
    }
    expect(PACK_TEMPLATES.find((t) => t.key === "eu-ai-act-art50-disclosure")!.region).toBe("EU");
  });

  it("reads dot paths through own members only", () => {
    expect(fieldAt({ a: { b: { c: 1 } } }, "a.b.c")).toBe(1);
    expect(fieldAt({ a: 1 }, "a.b")).toBeUndefined();
    expect(fieldAt({}, "constructor")).toBeUndefined();
    expect(fieldAt({ a: [5] }, "a.0")).toBeUndefined();
  });

  it("normalises content hashes", () => {
    expect(normaliseContentHash(`sha256:${HEX.toUpperCase()}`)).toBe(HEX);
    expect(normaliseContentHash(HEX)).toBe(HEX);
    expect(normaliseContentHash("sha256:abc")).toBeNull();
    expect(normaliseContentHash(42)).toBeNull();
  });

  it("passes each rule the facts satisfy, with a reason, in a fixed order", () => {
    const checks = evaluateRules(
      {
        require_content_hash_match: true,
        max_age_days: 2,
        required_fields: ["content_hash", "meta.source.url"],
        field_equals: [{ field: "type", value: "hallmark.protection/v1" }],
        allowed_payload_types: ["hallmark.protection/v1"],
        allowed_categories: ["design"],
        min_trust_level: "BASIC",
        allowed_issuer_statuses: ["ACTIVE"],
        allowed_key_algorithms: ["Ed25519"],
        required_visibility: "public",
      },
      facts({ contentHash: HEX }),
    );
    expect(checks.map((c) => c.name)).toEqual([
      "required_fields",
      "field_equals",
      "allowed_payload_types",
      "allowed_categories",
      "min_trust_level",
      "allowed_issuer_statuses",
      "allowed_key_algorithms",
      "max_age_days",
      "required_visibility",
      "content_hash_match",
    ]);
    for (const c of checks) {
      expect(c.result, `${c.name}: ${c.reason}`).toBe("pass");
      expect(c.reason.length).toBeGreaterThan(5);
    }
  });

  it("fails each rule the facts break, saying why", () => {
    const c = byName(
      evaluateRules(
        {
          required_fields: ["content_hash", "title", "meta.missing"],
          field_equals: [{ field: "category", value: "code" }],
          allowed_payload_types: ["acme.release/v2"],
          allowed_categories: ["code", "dataset"],
          min_trust_level: "VERIFIED",
          allowed_issuer_statuses: ["ACTIVE"],
          allowed_key_algorithms: ["Ed25519"],
          max_age_days: 1,
          required_visibility: "private",
          require_content_hash_match: true,
        },
        facts({
          issuer: { status: "SUSPENDED", trustLevel: "BASIC" },
          keyAlgorithm: "RSA",
          createdAt: new Date("2026-05-20T00:00:00Z"),
          contentHash: "cd".repeat(32),
        }),
      ),
    );
    expect(c.required_fields).toMatchObject({ result: "fail", reason: "payload lacks fields title, meta.missing" });
    expect(c.field_equals).toMatchObject({ result: "fail", reason: 'category is "design", expected "code"' });
    expect(c.allowed_payload_types!.reason).toBe("payload type hallmark.protection/v1 is not one of acme.release/v2");
    expect(c.allowed_categories!.reason).toBe("category design is not one of code, dataset");
    expect(c.min_trust_level!.reason).toBe("issuer trust level BASIC is below VERIFIED");
    expect(c.allowed_issuer_statuses!.reason).toBe("issuer status SUSPENDED is not one of ACTIVE");
    expect(c.allowed_key_algorithms!.reason).toBe("key algorithm RSA is not one of Ed25519");
    expect(c.max_age_days!.reason).toBe("attested 12 days ago, more than 1 day");
    expect(c.required_visibility!.reason).toBe("the protection is public, not private");
    expect(c.content_hash_match!.reason).toBe("the content hash sent differs from the attested content_hash");
    expect(Object.values(c).every((x) => x.result === "fail")).toBe(true);
  });

  it("trust levels are ordered BASIC < VERIFIED < HIGH", () => {
    const level = (have: string, min: "BASIC" | "VERIFIED" | "HIGH") =>
      evaluateRules({ min_trust_level: min }, facts({ issuer: { status: "ACTIVE", trustLevel: have } }))[0]!.result;
    expect([level("HIGH", "VERIFIED"), level("VERIFIED", "VERIFIED"), level("VERIFIED", "HIGH"), level("BASIC", "HIGH")]).toEqual([
      "pass",
      "pass",
      "fail",
      "fail",
    ]);
  });

  it("an issuer or key unknown to the log fails its rules; visibility does not apply to organisation attestations", () => {
    const c = byName(
      evaluateRules(
        {
          min_trust_level: "BASIC",
          allowed_issuer_statuses: ["ACTIVE"],
          allowed_key_algorithms: ["Ed25519"],
          required_visibility: "public",
        },
        facts({ issuer: null, keyAlgorithm: null, protection: null, payload: { type: "org.example.article/v1" } }),
      ),
    );
    expect(c.min_trust_level!.result).toBe("fail");
    expect(c.allowed_issuer_statuses!.result).toBe("fail");
    expect(c.allowed_key_algorithms!.result).toBe("fail");
    expect(c.required_visibility).toEqual({
      name: "required_visibility",
      result: "pass",
      reason: "not applicable: the attestation is not a consumer protection",
    });
  });

  it("a protection the caller may not see fails visibility as an unknown one does; a sealed entry's is not evaluated", () => {
    for (const visibility of ["public", "private"] as const) {
      // Someone else's private protection and a protection with no record here: the same answer.
      const hidden = evaluateRules({ required_visibility: visibility }, facts({ protection: null }));
      expect(hidden).toEqual([
        {
          name: "required_visibility",
          result: "fail",
          reason: "no protection this account may see is this attestation: a private one is its owner's alone",
        },
      ]);
      const sealed = evaluateRules(
        { required_visibility: visibility },
        facts({ protection: null, sealed: true, payload: { commitment: `sha256:${HEX}`, type: "hallmark.sealed/v2" } }),
      );
      expect(sealed[0]).toMatchObject({ result: "fail", reason: expect.stringMatching(/^not evaluated: a sealed entry/) });
    }
  });

  it("compares a sent content hash even without the rule, and requires one only with it", () => {
    expect(evaluateRules({}, facts())).toEqual([]);
    expect(evaluateRules({}, facts({ contentHash: HEX }))).toEqual([
      { name: "content_hash_match", result: "pass", reason: "the content hash sent equals the attested content_hash" },
    ]);
    expect(evaluateRules({ require_content_hash_match: true }, facts())[0]).toMatchObject({ name: "content_hash_match", result: "fail" });
    expect(evaluateRules({}, facts({ contentHash: HEX, payload: { title: "x" } }))[0]).toMatchObject({
      result: "fail",
      reason: expect.stringContaining("no content_hash"),
    });
    expect(ruleCheckNames({ max_age_days: 3, require_content_hash_match: true }, false)).toEqual(["max_age_days", "content_hash_match"]);
    expect(ruleCheckNames({ max_age_days: 3 }, true)).toEqual(["max_age_days", "content_hash_match"]);
  });

  it("a missing category or type fails with the allowed values", () => {
    const c = byName(evaluateRules({ allowed_categories: ["code"], allowed_payload_types: ["t"] }, facts({ payload: {} })));
    expect(c.allowed_categories!.reason).toBe("payload has no category; allowed: code");
    expect(c.allowed_payload_types!.reason).toBe("payload has no type; allowed: t");
  });
});
