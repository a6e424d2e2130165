// @hallmark-test db=sqlite,postgres lane=main
// GET /v1/lookup: who protected a file publicly, the first claim first, and nothing of a private
// one: bytes only a private protection holds answer exactly as bytes no one holds.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, expectProblem, mint, randomContentHash } from "./helpers";
import { seedConsumer, seedOrg } from "../accounts";

/** A client address of its own, so the per-address budget of one test never touches another's. */
const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const lookup = (query: string, headers: Record<string, string> = { "x-forwarded-for": newClient() }) =>
  api(`/v1/lookup?${query}`, { headers });

async function protect(hash: string, body: Record<string, unknown>) {
  const consumer = await seedConsumer({ name: `Creator ${randomUUID().slice(0, 8)}` });
  const res = await mint(consumer.apiKey, { content_hash: hash, ...body });
  expect(res.status, res.text).toBe(201);
  return { ...consumer, protection: res.body as { protection_id: string; protected_at: string } };
}

describe("lookup by content hash", () => {
  it("lists public protections in log order with creator and links, and nothing of a private one", async () => {
    const hash = randomContentHash();
    const secret = `secret-${randomContentHash().slice(0, 16)}`;
    const first = await protect(hash, { title: "Original", visibility: "public", category: "design" });
    const hidden = await protect(hash, { title: secret, description: secret, file_name: `${secret}.png`, visibility: "private" });
    const third = await protect(hash, { title: "Copy", visibility: "public" });

    const res = await lookup(`content_hash=${hash}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      content_hash: hash,
      first_protected_at: first.protection.protected_at,
      items: [first, third].map(({ protection, userId, name }, i) => ({
        protection_id: protection.protection_id,
        creator: { name, portfolio_url: `${baseUrl}/portfolio/${userId}` },
        title: i === 0 ? "Original" : "Copy",
        category: i === 0 ? "design" : "other",
        protected_at: protection.protected_at,
        log_index: expect.any(Number),
        verify_url: `${baseUrl}/verify/${protection.protection_id}`,
        share_url: `${baseUrl}/share/${protection.protection_id}`,
        proof_bundle_url: `${baseUrl}/v1/protections/${protection.protection_id}/proof-bundle`,
        tlog_proof_url: `${baseUrl}/v1/protections/${protection.protection_id}/tlog-proof`,
      })),
      total: 2,
    });
    expect(res.body.items[0].log_index).toBeLessThan(res.body.items[1].log_index);
    // Nothing of the private protection: no title, name, id or creator.
    for (const leak of [secret, hidden.protection.protection_id, hidden.userId, hidden.name, hidden.protection.protected_at])
      expect(res.text).not.toContain(leak);
    // The links work for anyone.
    const proof = await api(new URL(res.body.items[0].tlog_proof_url).pathname);
    expect(proof.status).toBe(200);
    expect(proof.text).toMatch(/^c2sp\.org\/tlog-proof@v1\n/);
  });

  it("says nothing of a private protection that came first: the first claim is the first public one", async () => {
    const hash = randomContentHash();
    const hidden = await protect(hash, { visibility: "private" });
    const shown = await protect(hash, { visibility: "public" });
    const res = await lookup(`content_hash=sha256:${hash.toUpperCase()}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_hash).toBe(hash);
    expect(res.body.first_protected_at).toBe(shown.protection.protected_at);
    expect(res.text).not.toContain(hidden.protection.protected_at);
    expect(res.body.total).toBe(1);
  });

  it("answers bytes only a private protection holds exactly as bytes no one holds: an empty result, not 404", async () => {
    const unknown = randomContentHash();
    const res = await lookup(`content_hash=${unknown}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ content_hash: unknown, first_protected_at: null, items: [], total: 0 });
    const held = randomContentHash();
    const owner = await protect(held, { visibility: "private" });
    // A stranger, another account's key, and the owner's own key: the same answer.
    const { apiKey } = await seedOrg();
    for (const headers of [{}, { "x-api-key": apiKey }, { "x-api-key": owner.apiKey }] as Record<string, string>[]) {
      const hidden = await lookup(`content_hash=${held}`, { "x-forwarded-for": newClient(), ...headers });
      expect(hidden.status).toBe(200);
      expect(hidden.body).toEqual({ ...res.body, content_hash: held });
    }
  });

  it("pages with limit and offset, in the same order", async () => {
    const hash = randomContentHash();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await protect(hash, { visibility: "public" })).protection.protection_id);
    const page = await lookup(`content_hash=${hash}&limit=2&offset=1`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.items.map((i: { protection_id: string }) => i.protection_id)).toEqual(ids.slice(1));
    expect(page.body.total).toBe(3);
  });

  it("refuses a missing or malformed hash and bad paging with 400 and a pointer", async () => {
    for (const query of ["", "content_hash=abc", `content_hash=${"g".repeat(64)}`, `content_hash=${randomContentHash()}&limit=0`]) {
      const res = await lookup(query);
      expectProblem(res, 400, "invalid_parameter");
      expect(res.body.errors?.[0]?.pointer, query).toMatch(/^\/(content_hash|limit)$/);
    }
  });

  it("limits each client address, with RateLimit headers, whether or not a key is sent", async () => {
    const client = newClient();
    const hash = randomContentHash();
    const first = await lookup(`content_hash=${hash}`, { "x-forwarded-for": client });
    expect(first.status).toBe(200);
    const quota = Number(/"lookup";q=(\d+);w=60/.exec(first.headers.get("ratelimit-policy") ?? "")?.[1]);
    expect(quota).toBeGreaterThan(1);
    expect(first.headers.get("ratelimit")).toMatch(new RegExp(`^"lookup";r=${quota - 1};t=\\d+$`));
    const rest = await Promise.all(Array.from({ length: quota }, () => lookup(`content_hash=${hash}`, { "x-forwarded-for": client })));
    const refused = rest.filter((r) => r.status === 429);
    expect(refused).toHaveLength(1);
    expectProblem(refused[0]!, 429, "rate_limited");
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused[0]!.headers.get("ratelimit")).toMatch(/^"lookup";r=0;t=\d+$/);
    // Another address is not affected; a key from the spent one is refused too (and spends its own limits).
    expect((await lookup(`content_hash=${hash}`)).status).toBe(200);
    const { apiKey } = await seedOrg();
    const keyed = await lookup(`content_hash=${hash}`, { "x-forwarded-for": client, "x-api-key": apiKey });
    expectProblem(keyed, 429, "rate_limited");
    expect(keyed.headers.get("ratelimit-policy")).toMatch(
      /^"minute";q=\d+;w=60, "day";q=\d+;w=86400, "lookup";q=\d+;w=60, "lookup-account"/,
    );
  });
});
