// @hallmark-test db=sqlite,postgres lane=alone
// JSON nested past the bound (server/json-depth.mjs) on every reader of client JSON: every /v1
// operation with a JSON body (read from the served OpenAPI document, so a new one is covered
// the day it is added), every tRPC procedure (POST bodies, GET inputs, batches) and next-auth's
// credentials callback. Refused before anything recursive reads it: never a 5xx, and nothing
// written (every table read whole before and after, row by row; the file runs in the suite's alone lane).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/server/json-depth.mjs";
import { MAX_PAYLOAD_DEPTH } from "@/server/domain/attestations";
import { CONSUMER_SCOPES } from "@/server/domain/accounts";
import { httpRequest } from "@/server/test-support/raw-http";
import { seedConsumer, seedOrg } from "../accounts";
import { api, baseUrls, createIssuer, expectProblem, sessionToken } from "./helpers";
import { procedureTargets } from "./fuzz/inventory";
import { snapshot } from "./fuzz/ledger";

/** A deep text and the JSON pointer of the first value past the bound in it. */
interface Deep {
  name: string;
  text: string;
  pointer: string;
}

const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const mixed = (n: number) => '{"a":['.repeat(n) + "]}".repeat(n);

const DEEP: Deep[] = [
  // 200 KB, under the 256 KiB body cap.
  { name: "a 100,000-deep array", text: arrays(100_000), pointer: "/0".repeat(MAX_JSON_DEPTH) },
  { name: "a 20,000-deep object", text: objects(20_000), pointer: "/a".repeat(MAX_JSON_DEPTH) },
  { name: "a body one level past the bound", text: `{"x":${arrays(MAX_JSON_DEPTH)}}`, pointer: "/x" + "/0".repeat(MAX_JSON_DEPTH - 1) },
  { name: "arrays in objects, 30,000 deep", text: mixed(15_000), pointer: "/a/0".repeat(MAX_JSON_DEPTH / 2) },
];

/** The refusal every reader gives: 422 validation_failed, one error at the first value past the bound. */
function expectDepthRefusal(res: { status: number; body: any; text: string }, pointer: string, what: string): void {
  expect({ status: res.status, code: res.body?.code }, `${what}: ${res.text.slice(0, 300)}`).toEqual({
    status: 422,
    code: "validation_failed",
  });
  expect(res.body.errors, what).toEqual([{ pointer, detail: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` }]);
}

describe("JSON nested past the bound", () => {
  let orgKey: string;
  let consumerKey: string;
  let session: string;
  let cookie: string;
  let issuerId: string;
  const consumerScopes: ReadonlySet<string> = new Set(CONSUMER_SCOPES);

  beforeAll(async () => {
    orgKey = (await seedOrg()).apiKey;
    issuerId = (await createIssuer(orgKey)).id;
    const consumer = await seedConsumer();
    consumerKey = consumer.apiKey;
    session = await sessionToken(consumer.email, consumer.password);
    cookie = `next-auth.session-token=${session}`;
  });

  it("takes a payload as deep as a payload may be, and lets a body exactly at the bound through to validation", async () => {
    const headers = { "content-type": "application/json" };
    // The deepest JSON a valid request carries: a payload at its own bound, in a batch item.
    const payload = `{"deep":${arrays(MAX_PAYLOAD_DEPTH)}}`;
    const batch = await api("/v1/attestations/batch", {
      key: orgKey,
      headers,
      raw: `{"items":[{"issuer_id":"${issuerId}","payload":${payload}}]}`,
    });
    expect(batch.status, batch.text).toBe(201);
    // The body one level, the payload the other 63: parsed, then refused by the payload's own rule.
    const atBound = await api("/v1/attestations", {
      key: orgKey,
      headers,
      raw: `{"issuer_id":"${issuerId}","payload":{"deep":${arrays(MAX_JSON_DEPTH - 2)}}}`,
    });
    expectProblem(atBound, 422, "validation_failed");
    expect(atBound.body.errors).toEqual([{ pointer: "/payload", detail: `must nest at most ${MAX_PAYLOAD_DEPTH} levels deep` }]);
  });

  it("refuses it with 422 and a pointer on every /v1 operation with a JSON body, and writes nothing", async () => {
    const doc = (await api("/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> }; security?: Record<string, string[]>[] }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody?.content["application/json"])
        .map(([method, op]) => {
          const security = op.security ?? [];
          const open = security.some((s) => Object.keys(s).length === 0);
          const scopes = security.find((s) => s.apiKey)?.apiKey;
          // What the operation takes: nothing where it needs nothing, else a key of the kind that
          // holds its scope, else (session-only operations) the session.
          const key = open || !scopes ? undefined : scopes.every((s) => consumerScopes.has(s)) ? consumerKey : orgKey;
          const headers: Record<string, string> = !open && !scopes ? { authorization: `Bearer ${session}` } : {};
          return { method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, randomUUID()), key, headers };
        }),
    );
    const paths = operations.map((o) => o.path);
    for (const must of ["/v1/attestations", "/v1/consumer/mint", "/v1/consumer/login"]) expect(paths).toContain(must);

    const before = await snapshot(process.env.DATABASE_URL!);
    let n = 0;
    for (const op of operations) {
      for (const deep of DEEP) {
        const res = await api(op.path, {
          method: op.method,
          key: op.key,
          raw: deep.text,
          headers: { ...op.headers, "content-type": "application/json" },
          instance: n++ % baseUrls.length,
        });
        expectProblem(res, 422, "validation_failed");
        expectDepthRefusal(res, deep.pointer, `${op.method} ${op.path} with ${deep.name}`);
      }
    }
    expect(await snapshot(process.env.DATABASE_URL!)).toEqual(before);
  });

  it("refuses it on /api/trpc: POST bodies, GET inputs and batches of every procedure, and writes nothing", async () => {
    // A GET's input rides in the URL, under the 16 KiB of headers: as deep as that allows.
    // [, ], {, } and : go unescaped in a query, as a browser sends them; " does not.
    const query = [
      { name: "a 7,000-deep array", text: arrays(7_000), pointer: "/0".repeat(MAX_JSON_DEPTH) },
      { name: "a 1,400-deep object", text: objects(1_400).replace(/"/g, "%22"), pointer: "/a".repeat(MAX_JSON_DEPTH) },
    ];
    const before = await snapshot(process.env.DATABASE_URL!);
    const procedures = procedureTargets();
    expect(procedures.length).toBeGreaterThan(10);
    /** In a one-call batch ({"0": …}: account calls are never batched with others), one level deeper. */
    const inBatch = (pointer: string) => "/0" + pointer.slice(0, pointer.lastIndexOf("/"));
    let i = 0;
    // The session's cookie from the instance's own origin, as the dashboard sends it.
    const send = (path: string, body?: string) => {
      const base = baseUrls[i++ % baseUrls.length]!;
      const headers: Record<string, string> =
        body === undefined ? { cookie } : { cookie, origin: base, "content-type": "application/json" };
      return httpRequest(base, path, { method: body === undefined ? "GET" : "POST", headers, body });
    };
    // Each procedure meets the array and the object, alone and batched, by POST and by GET.
    for (const [k, p] of procedures.entries()) {
      const [one, other] = k % 2 ? [DEEP[0]!, DEEP[1]!] : [DEEP[1]!, DEEP[0]!];
      const post = `/api/trpc/${p.path}`;
      expectDepthRefusal(await send(post, one.text), one.pointer, `POST ${post} with ${one.name}`);
      const batch = `${post}?batch=1`;
      expectDepthRefusal(await send(batch, `{"0":${other.text}}`), inBatch(other.pointer), `POST ${batch} with ${other.name}`);
      const [q1, q2] = k % 2 ? [query[0]!, query[1]!] : [query[1]!, query[0]!];
      expectDepthRefusal(await send(`${post}?input=${q1.text}`), q1.pointer, `GET ${post} with ${q1.name}`);
      expectDepthRefusal(await send(`${batch}&input={%220%22:${q2.text}}`), inBatch(q2.pointer), `GET ${batch} with ${q2.name}`);
    }
    expect(await snapshot(process.env.DATABASE_URL!)).toEqual(before);
  });

  it("never hands next-auth's credentials callback JSON: a JSON body is 415, a deep form value no 5xx, and no session", async () => {
    const consumer = await seedConsumer();
    const base = baseUrls[0]!;
    const csrf = await httpRequest(base, "/api/auth/csrf");
    const csrfCookie = ([] as string[])
      .concat(csrf.headers["set-cookie"] ?? [])
      .map((c) => c.split(";")[0])
      .join("; ");
    const csrfToken = csrf.body.csrfToken as string;
    const post = (type: string, body: string) =>
      httpRequest(base, "/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": type, cookie: csrfCookie, origin: base },
        body,
      });
    const sessionSet = (res: { headers: Record<string, unknown> }) =>
      JSON.stringify(res.headers["set-cookie"] ?? []).includes("session-token");
    const before = await snapshot(process.env.DATABASE_URL!);

    for (const deep of DEEP.slice(0, 2)) {
      const res = await post("application/json", deep.text);
      expect({ status: res.status, code: res.body?.code }, deep.name).toEqual({ status: 415, code: "unsupported_media_type" });
    }
    // A form type whose parameter names JSON: next-auth would read the body as JSON (and log in
    // with the credentials in it); it gets the form it was declared as, which carries none.
    const asJson = JSON.stringify({ json: "true", csrfToken, email: consumer.email, password: consumer.password });
    const declared = await post('application/x-www-form-urlencoded; x="application/json"', asJson);
    expect(declared.status, declared.text).toBeLessThan(500);
    expect(sessionSet(declared), declared.text).toBe(false);
    const deepValue = await post(
      "application/x-www-form-urlencoded",
      new URLSearchParams({ email: arrays(40_000), password: consumer.password, csrfToken, json: "true" }).toString(),
    );
    expect(deepValue.status, deepValue.text).toBeLessThan(500);
    expect(sessionSet(deepValue), deepValue.text).toBe(false);
    expect(await snapshot(process.env.DATABASE_URL!)).toEqual(before);
  });
});
