// @hallmark-test db=sqlite lane=main
// GET /v1/openapi.json: a valid OpenAPI 3.1 document (checked by an independent validator) that
// describes exactly the routes under app/v1, matches the interface contract field for field, and
// the /docs reference built from it. (Every answer of the REST suite is also validated against it:
// e2e/api/openapi-conformance.ts, called by helpers.api.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import { procedureFacts, routerProcedures } from "@/server/api/trpc-adapter";
import { api, baseUrl } from "./helpers";
import { assertDescribed } from "./openapi-conformance";

type Json = Record<string, any>;

async function documentOf(): Promise<Json> {
  const res = await api("/v1/openapi.json");
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.body as Json;
}

/** `{ "GET /v1/…": true }` for every method a route file under app/v1 serves (otherMethods lists them). */
function servedRoutes(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") {
        const rel = path.relative("app", dir).split(path.sep);
        if (rel.some((s) => s.startsWith("[["))) continue; // the catch-all 404 for unknown /v1 paths
        const template = "/" + rel.map((s) => s.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}")).join("/");
        const served = /otherMethods\(([^)]*)\)/.exec(readFileSync(full, "utf8"))?.[1] ?? "";
        for (const m of served.match(/[A-Z]+/g) ?? []) out.push(`${m} ${template}`);
      }
    }
  };
  walk("app/v1");
  return out.sort();
}

/** A schema with its $refs resolved (the document's own components). */
function resolve(doc: Json, schema: Json): Json {
  if (schema?.$ref)
    return resolve(
      doc,
      schema.$ref
        .slice(2)
        .split("/")
        .reduce((o: Json, k: string) => o[k], doc),
    );
  return schema;
}

const successSchema = (doc: Json, method: string, p: string): Json => {
  const op = doc.paths[p][method];
  const [status] = Object.keys(op.responses).filter((s) => s.startsWith("2"));
  return resolve(doc, op.responses[status!].content["application/json"].schema);
};

/** Asserts an object schema has these fields, required, of these JSON types (and enum values, when given). */
function expectFields(doc: Json, schema: Json, fields: Record<string, string | string[]>, where: string) {
  const s = resolve(doc, schema);
  for (const [name, want] of Object.entries(fields)) {
    const prop = resolve(doc, s.properties?.[name]);
    expect(prop, `${where}: ${name} is described`).toBeDefined();
    expect(s.required ?? [], `${where}: ${name} is required`).toContain(name);
    if (Array.isArray(want)) {
      for (const v of want) expect(prop.enum ?? [prop.const], `${where}: ${name} may be ${v}`).toContain(v);
    } else {
      const types = [prop.type].flat().concat((prop.anyOf ?? []).map((a: Json) => resolve(doc, a).type));
      expect(types, `${where}: ${name} is ${want}`).toContain(want);
    }
  }
}

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1 according to an independent validator", async () => {
    const doc = await documentOf();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("is generated from procedures that each declare their input and output", () => {
    const procedures = routerProcedures(appRouter);
    expect(procedures.length).toBeGreaterThan(30);
    // Declared by .output(), which parses every answer, or, for an answer too large to parse on
    // every call (a batch's 1,000 attestations), by the `response` its route documents, which the
    // REST suites check every real answer against (openapi-conformance.ts).
    for (const [path, p] of procedures) {
      const facts = procedureFacts(p);
      expect(facts.output ?? facts.meta?.rest?.response, `${path} declares its output`).toBeDefined();
    }
  });

  it("describes every route under app/v1, and nothing else", async () => {
    const doc = await documentOf();
    const described = Object.entries(doc.paths as Json)
      .flatMap(([p, item]) =>
        Object.keys(item as Json)
          .filter((k) => ["get", "post", "put", "patch", "delete"].includes(k))
          .map((m) => `${m.toUpperCase()} ${p}`),
      )
      .sort();
    expect(described).toEqual(servedRoutes());
    for (const [p, item] of Object.entries(doc.paths as Json)) {
      for (const op of Object.values(item as Json) as Json[]) {
        expect(op.operationId, p).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(
          Object.keys(op.responses).some((s) => s.startsWith("2")),
          `${p} has a success`,
        ).toBe(true);
      }
    }
  });

  it("states security: a key or a session where one is required, anonymous allowed on public endpoints", async () => {
    const doc = await documentOf();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "sessionBearer", "sessionCookie"]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    const mint = doc.paths["/v1/consumer/mint"].post;
    expect(mint.security).toContainEqual({ apiKey: ["protections:write"] });
    expect(mint.security).not.toContainEqual({});
    expect(doc.paths["/v1/protections/{id}"].get.security).toContainEqual({});
    expect(doc.paths["/v1/consumer/login"].post.security).toContainEqual({});
    // The problems a caller can meet, each status with its codes, and the headers that go with them.
    expect(Object.keys(mint.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "413", "415", "422", "429", "503"]));
    const tooMany = mint.responses["429"];
    expect(resolve(doc, tooMany.content["application/problem+json"].schema).properties.code.enum).toEqual(
      expect.arrayContaining(["rate_limited", "daily_quota_exceeded", "quota_exceeded"]),
    );
    expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(["Retry-After", "RateLimit"]));
    expect(mint.parameters.map((p: Json) => p.name)).toContain("Idempotency-Key");
  });

  it("matches the interface contract field for field", async () => {
    const doc = await documentOf();
    const apiKeys = successSchema(doc, "get", "/v1/api-keys");
    expect(apiKeys.type).toBe("array");
    expectFields(
      doc,
      apiKeys.items,
      {
        id: "string",
        name: "string",
        prefix: "string",
        status: ["ACTIVE", "REVOKED"],
        scopes: "array",
        daily_quota: "integer",
        rate_limit_per_minute: "integer",
        created_at: "string",
      },
      "API key",
    );
    expectFields(doc, successSchema(doc, "post", "/v1/api-keys/{id}/revoke"), { id: "string", status: ["REVOKED"] }, "revoke");
    const attestation = {
      id: "string",
      issuer_id: "string",
      kid: "string",
      status: ["VALID"],
      payload: "object",
      signature: "string",
      log_index: "integer",
      created_at: "string",
    };
    expectFields(doc, successSchema(doc, "get", "/v1/attestations/{id}"), attestation, "Attestation");
    const bundle = successSchema(doc, "get", "/v1/attestations/{id}/proof-bundle");
    expectFields(
      doc,
      bundle,
      { attestation: "object", issuer: "object", key: "object", inclusion_proof: "object", signed_tree_head: "object" },
      "proof bundle",
    );
    expectFields(doc, bundle.properties.attestation, attestation, "bundle.attestation");
    expectFields(
      doc,
      bundle.properties.issuer,
      {
        id: "string",
        tenant_id: "string",
        name: "string",
        domain: "string",
        status: ["PENDING"],
        trust_level: ["BASIC"],
        created_at: "string",
        updated_at: "string",
      },
      "Issuer",
    );
    expectFields(
      doc,
      bundle.properties.key,
      {
        kid: "string",
        issuer_id: "string",
        algorithm: ["Ed25519"],
        public_key: "string",
        status: ["ACTIVE"],
        not_before: "string",
        expires_at: "string",
      },
      "Signing key",
    );
    expectFields(doc, bundle.properties.inclusion_proof, { log_index: "integer", root_hash: "string", hashes: "array" }, "Inclusion proof");
    expectFields(
      doc,
      bundle.properties.signed_tree_head,
      { tree_size: "integer", root_hash: "string", signature: "string" },
      "Signed tree head",
    );
    const protections = successSchema(doc, "get", "/v1/consumer/protections");
    expectFields(doc, protections, { items: "array", total: "integer" }, "protection list");
    expectFields(doc, protections.properties.items.items, attestation, "protection list item");
    const packs = successSchema(doc, "get", "/v1/attestation-packs");
    expectFields(doc, packs, { items: "array", total: "integer" }, "pack list");
    expectFields(
      doc,
      packs.properties.items.items,
      {
        id: "string",
        tenant_id: "string",
        name: "string",
        description: "string",
        category: "string",
        region: "string",
        status: ["active"],
        is_template: "boolean",
        verifications_count: "integer",
        created_at: "string",
        updated_at: "string",
      },
      "Pack",
    );
    expectFields(
      doc,
      successSchema(doc, "post", "/v1/consumer/mint"),
      {
        protection_id: "string",
        attestation_id: "string",
        verify_url: "string",
        share_url: "string",
        status: ["protected"],
        content_hash: "string",
        protected_at: "string",
      },
      "Protection record",
    );
    const login = successSchema(doc, "post", "/v1/consumer/login");
    expectFields(doc, login, { session_token: "string", user: "object" }, "login");
    expectFields(doc, login.properties.user, { id: "string", email: "string", name: "string", realm: "string" }, "Consumer user");
    const mintBody = resolve(doc, doc.paths["/v1/consumer/mint"].post.requestBody.content["application/json"].schema);
    expect(mintBody.required).toEqual(["content_hash"]);
    expect(Object.keys(mintBody.properties).sort()).toEqual([
      "ai_metadata",
      "category",
      "content_hash",
      "content_type",
      "description",
      "file_name",
      "file_size",
      // Beyond the contract: perceptual fingerprints for similar-image lookup (optional).
      "fingerprints",
      "title",
      "visibility",
    ]);
    expect(resolve(doc, mintBody.properties.category).enum).toEqual([
      "code",
      "research",
      "design",
      "media",
      "dataset",
      "ai-output",
      "writing",
      "digital-art",
      "other",
    ]);
    expect(resolve(doc, mintBody.properties.visibility).enum).toEqual(["public", "private"]);
  });

  it("the REST suite's check refuses an answer the document does not describe", async () => {
    const json = new Headers({ "content-type": "application/json" });
    const problem = new Headers({ "content-type": "application/problem+json" });
    const log = (await api("/v1/log")).text;
    await expect(assertDescribed(baseUrl, "GET", "/v1/log", 200, json, log)).resolves.toBeUndefined();
    // An undocumented status, a body missing a required field, a wrong content type, a problem code
    // the operation never answers with that status.
    await expect(assertDescribed(baseUrl, "GET", "/v1/log", 418, problem, "{}")).rejects.toThrow(/not documented/);
    const { tree_size: _, ...partial } = JSON.parse(log);
    await expect(assertDescribed(baseUrl, "GET", "/v1/log", 200, json, JSON.stringify(partial))).rejects.toThrow(/tree_size/);
    await expect(assertDescribed(baseUrl, "GET", "/v1/log", 200, new Headers({ "content-type": "text/html" }), log)).rejects.toThrow(
      /content type/,
    );
    const notFound = {
      type: "urn:hallmark:problem:quota_exceeded",
      title: "t",
      status: 404,
      detail: "d",
      code: "quota_exceeded",
      request_id: "r",
    };
    await expect(assertDescribed(baseUrl, "GET", "/v1/attestations/x", 404, problem, JSON.stringify(notFound))).rejects.toThrow(/match/);
    // A path no operation serves is a 404 problem, a method a path does not serve a 405.
    await expect(assertDescribed(baseUrl, "GET", "/v1/nothing-here", 200, json, "{}")).rejects.toThrow(/no operation/);
    await expect(
      assertDescribed(baseUrl, "DELETE", "/v1/log", 405, problem, JSON.stringify({ ...notFound, status: 405, code: "method_not_allowed" })),
    ).resolves.toBeUndefined();
  });

  it("is shown at /docs by a reference served from this origin", async () => {
    const page = await fetch(`${baseUrl}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/v1/openapi.json");
    const script = /<script[^>]+src="(\/docs\/scalar\.js[^"]*)"/.exec(html)?.[1];
    expect(script, html.slice(0, 2000)).toBeDefined();
    const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
    const bundle = await fetch(`${baseUrl}${script!.replace(/&amp;/g, "&")}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
