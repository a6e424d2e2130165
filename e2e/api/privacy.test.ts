// @hallmark-test db=sqlite,postgres lane=main
// A private protection, as a stranger meets it. For every public operation of the OpenAPI
// document, every tRPC public.* procedure and every page with a parameter, each parameter is
// asked once with something of a private protection (its id, its attestation's id, its owner's
// id, its SHA-256, its PDQ fingerprint, its verify and share URLs) and once with the same kind of
// thing that exists nowhere (and for the owner, with a twin account of the same name that has
// no protection). The two answers must be the same: status, content type, caching and body,
// with ids, times, hashes and per-answer values (request ids, CSP nonces) aside. The REST
// operations are asked again with another account's key. Two private protections are asked
// about: one minted private (logged sealed), and one minted public and made private later (its
// log entry stays readable; every door must still answer as for nothing). Then nothing in any
// leaf of the log links the sealed entry to its protection or to its owner.
import { randomBytes, randomUUID } from "node:crypto";
import { uuidv7 } from "uuidv7";
import { beforeAll, describe, expect, it } from "vitest";
import { seedConsumer, seedOrg } from "../accounts";
import { pageTargets, procedureTargets } from "./fuzz/inventory";
import { api, baseUrl, mint, randomContentHash } from "./helpers";
import { leafHolding, publishedLeaves } from "../public-log";

/** What a stranger may try, each of a private protection and of nothing. */
type Kind = "protection" | "attestation" | "user" | "content_hash" | "pdq" | "verify_url" | "share_url";
type Values = Record<Kind, string>;

interface Answer {
  status: number;
  type: string | null;
  caching: string | null;
  body: string;
}

const KINDS: Kind[] = ["protection", "attestation", "user", "content_hash", "pdq", "verify_url", "share_url"];
const randomPdq = () => randomBytes(32).toString("hex");
/** A client address of its own per request: the per-address budgets (lookups, certificates) never run out here. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;

/**
 * An answer with what differs between any two requests set aside: the values asked about (each
 * side's own), UUIDs, times, 64-hex-digit hashes, base64 runs (signatures, nonces, encoded ids),
 * and Next.js's per-response nonces and request ids.
 */
function normalised(text: string, asked: string[]): string {
  let out = text;
  for (const v of asked) out = out.split(v).join("<asked>").split(encodeURIComponent(v)).join("<asked>");
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/[0-9a-f]{64}/gi, "<hex>")
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/[A-Za-z0-9+/]{22}==/g, "<nonce>")
    .replace(/[A-Za-z0-9+/_-]{40,}={0,2}/g, "<b64>");
}

async function ask(path: string, asked: string[], key?: string): Promise<Answer> {
  const headers: Record<string, string> = { "x-forwarded-for": newClient(), ...(key ? { "x-api-key": key } : {}) };
  const res = await fetch(`${baseUrl}${path}`, { headers, redirect: "manual" });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    caching: res.headers.get("cache-control"),
    body: normalised(await res.text(), asked),
  };
}

/** A private protection's values, and the same kinds of thing that exist nowhere. */
interface Case {
  label: string;
  hidden: Values;
  nothing: Values;
}

/** A protection of a fingerprinted picture by a new creator (and a twin of the same name without one), and the values to ask with. */
async function privateCase(label: string, madePrivateLater: boolean): Promise<Case & { secrets: string[] }> {
  const name = `Twin ${randomUUID().slice(0, 8)}`;
  const [owner, twin] = [await seedConsumer({ name }), await seedConsumer({ name })];
  const hash = randomContentHash();
  const pdq = randomPdq();
  const title = `secret-${randomUUID().slice(0, 8)}`;
  const m = await mint(owner.apiKey, {
    content_hash: hash,
    title,
    description: title,
    file_name: `${title}.png`,
    visibility: madePrivateLater ? "public" : "private",
    fingerprints: [{ alg: "pdq", hash: pdq, quality: 90 }],
  });
  expect(m.status, m.text).toBe(201);
  const id = m.body.protection_id as string;
  if (madePrivateLater) {
    const hidden = await api(`/v1/consumer/protections/${id}`, { key: owner.apiKey, method: "PATCH", json: { visibility: "private" } });
    expect(hidden.status, hidden.text).toBe(200);
  }
  const own = await api(`/v1/protections/${id}/proof-bundle`, { key: owner.apiKey });
  expect(own.status, own.text).toBe(200);
  const unknown = uuidv7();
  const a = own.body.attestation;
  return {
    label,
    hidden: {
      protection: id,
      attestation: m.body.attestation_id,
      user: owner.userId,
      content_hash: hash,
      pdq,
      verify_url: `${baseUrl}/verify/${id}`,
      share_url: `${baseUrl}/share/${id}`,
    },
    nothing: {
      protection: unknown,
      attestation: uuidv7(),
      user: twin.userId,
      content_hash: randomContentHash(),
      pdq: randomPdq(),
      verify_url: `${baseUrl}/verify/${unknown}`,
      share_url: `${baseUrl}/share/${unknown}`,
    },
    secrets: [
      id,
      m.body.attestation_id,
      owner.userId,
      hash,
      pdq,
      title,
      owner.email,
      a.issuer_id,
      a.kid,
      a.signature,
      ...(a.created_at.endsWith(".000Z") ? [] : [a.created_at]),
    ],
  };
}

describe("a private protection, to a stranger", () => {
  let cases: Case[];
  let secrets: string[];

  beforeAll(async () => {
    const sealed = await privateCase("minted private", false);
    const later = await privateCase("made private after it was public", true);
    cases = [sealed, later];
    // The sealed one's: no leaf may hold them (the other's entry was published while it was public).
    secrets = sealed.secrets;
  });

  /** Each side's answer for the same request with `kind`'s value in one place, the same everywhere else. */
  async function both(c: Case, request: (v: string) => string, kind: Kind, key?: string): Promise<[Answer, Answer]> {
    const asked = [c.hidden[kind], c.nothing[kind]];
    return [await ask(request(c.hidden[kind]), asked, key), await ask(request(c.nothing[kind]), asked, key)];
  }

  it("every public operation of the OpenAPI document answers about it as about nothing", async () => {
    const doc = (await api("/v1/openapi.json")).body as {
      paths: Record<
        string,
        Record<string, { security?: object[]; parameters?: { name: string; in: string; schema?: { type?: string } }[] }>
      >;
    };
    let asked = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      // Public: a caller may send no credential at all (an empty security requirement).
      if (!op || !(op.security ?? [{}]).some((s) => Object.keys(s).length === 0)) continue;
      const params = (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
      for (const param of params) {
        if (param.schema?.type !== undefined && param.schema.type !== "string") continue;
        const request = (v: string) => {
          // The parameter asked about carries the value; every other path parameter a fixed one.
          const path = template.replace(/\{([^}]+)\}/g, (_, p: string) => encodeURIComponent(p === param.name ? v : "0"));
          return param.in === "query" ? `${path}?${param.name}=${encodeURIComponent(v)}` : path;
        };
        // Another account's key too: one of its own for each parameter, so no budget of the
        // account's runs out (lookups and certificates are limited per account).
        const otherKey = (await seedOrg()).apiKey;
        for (const c of cases)
          for (const kind of KINDS)
            for (const key of [undefined, otherKey]) {
              const [a, b] = await both(c, request, kind, key);
              expect(a, `GET ${template} with ${param.name} = the ${kind} of a protection ${c.label}${key ? ", with a key" : ""}`).toEqual(
                b,
              );
              asked++;
            }
      }
    }
    // The lookups, the protection's reads and pages, its badge, oEmbed and portfolio were among them.
    expect(asked).toBeGreaterThan(400);
  });

  it("every tRPC public.* procedure answers about it as about nothing", async () => {
    const procedures = procedureTargets().filter((p) => p.path.startsWith("public."));
    expect(procedures.map((p) => p.path)).toEqual(expect.arrayContaining(["public.lookup", "public.protection", "public.portfolio"]));
    for (const p of procedures)
      for (const field of p.fields)
        for (const c of cases)
          for (const kind of KINDS) {
            const input = (v: string) => `/api/trpc/${p.path}?input=${encodeURIComponent(JSON.stringify({ [field]: v }))}`;
            const [a, b] = await both(c, input, kind);
            expect(a, `${p.path} with ${field} = the ${kind} of a protection ${c.label}`).toEqual(b);
          }
  });

  it("every page with a parameter, and every Open Graph image, answers about it as about nothing", async () => {
    const templates = [
      ...pageTargets()
        .filter((t) => t.params.length > 0)
        .map((t) => t.template),
      "/share/{id}/opengraph-image",
      "/verify/{id}/opengraph-image",
    ];
    expect(templates).toEqual(expect.arrayContaining(["/verify/{id}", "/share/{id}", "/portfolio/{userId}"]));
    for (const template of templates)
      for (const c of cases)
        for (const kind of ["protection", "attestation", "user"] as const) {
          const [a, b] = await both(c, (v) => template.replace(/\{[^}]+\}/g, v), kind);
          expect(a, `${template} with the ${kind} of a protection ${c.label}`).toEqual(b);
        }
  });

  it("no leaf of the log holds anything of it or of its owner", async () => {
    const own = await api(`/v1/log`);
    const leaves = await publishedLeaves(baseUrl, own.body.tree_size - 1);
    for (const secret of secrets) expect(leafHolding(leaves, secret), secret).toBeUndefined();
  });
});
