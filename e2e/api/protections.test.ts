// @hallmark-test db=sqlite,postgres lane=main
// GET /v1/consumer/protections: the caller's own protections, newest first, paged.
import { describe, expect, it } from "vitest";
import { api, baseUrl, expectProblem, mint, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";

describe("consumer protections list", () => {
  it("lists the caller's protections newest first, with attestation and protection fields", async () => {
    const { apiKey } = await seedConsumer();
    const made = [];
    for (let i = 0; i < 3; i++) {
      const res = await mint(apiKey, {
        content_hash: randomContentHash(),
        title: `Work ${i}`,
        description: "about it",
        file_name: `work-${i}.png`,
        content_type: "image/png",
        file_size: 1000 + i,
        category: "design",
        visibility: i === 2 ? "public" : "private",
        ai_metadata: { labels: ["cat"], i },
      });
      expect(res.status, res.text).toBe(201);
      made.push(res.body);
    }
    const list = await api("/v1/consumer/protections", { key: apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.items.map((x: { protection_id: string }) => x.protection_id)).toEqual(made.map((m) => m.protection_id).reverse());
    const first = list.body.items[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        "id",
        "issuer_id",
        "kid",
        "status",
        "payload",
        "signature",
        "log_index",
        "created_at",
        "protection_id",
        "content_hash",
        "title",
        "description",
        "file_name",
        "content_type",
        "file_size",
        "category",
        "visibility",
        "ai_metadata",
        "verification_count",
        "verify_url",
        "share_url",
        "protected_at",
        "fingerprints",
      ].sort(),
    );
    expect(first.fingerprints).toEqual([]);
    expect(first).toMatchObject({
      id: made[2].attestation_id,
      status: "VALID",
      protection_id: made[2].protection_id,
      content_hash: made[2].content_hash,
      title: "Work 2",
      description: "about it",
      file_name: "work-2.png",
      content_type: "image/png",
      file_size: 1002,
      category: "design",
      visibility: "public",
      ai_metadata: { labels: ["cat"], i: 2 },
      verification_count: 0,
      verify_url: `${baseUrl}/verify/${made[2].protection_id}`,
      share_url: `${baseUrl}/share/${made[2].protection_id}`,
      protected_at: made[2].protected_at,
      created_at: made[2].protected_at,
    });
    expect(first.payload.content_hash).toBe(`sha256:${made[2].content_hash}`);
    expect(typeof first.log_index).toBe("number");
  });

  it("pages with limit and an opaque cursor; total counts everything", async () => {
    const { apiKey } = await seedConsumer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await mint(apiKey, { content_hash: randomContentHash() })).body.protection_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await api(`/v1/consumer/protections${q}`, { key: apiKey });
      expect(page.status, page.text).toBe(200);
      expect(page.body.total).toBe(5);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((x: { protection_id: string }) => x.protection_id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    const all = await api("/v1/consumer/protections?limit=100", { key: apiKey });
    expect(all.body.items).toHaveLength(5);
  });

  it("answers invalid parameters with 400 invalid_parameter", async () => {
    const { apiKey } = await seedConsumer();
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=-1", "limit=1.5", "cursor=%%%", "cursor=bm9wZQ"]) {
      const res = await api(`/v1/consumer/protections?${q}`, { key: apiKey });
      expectProblem(res, 400, "invalid_parameter");
      expect(res.body.errors?.[0]?.pointer, q).toMatch(/^\/(limit|cursor)$/);
    }
  });

  it("shows nobody else's protections", async () => {
    const a = await seedConsumer();
    const b = await seedConsumer();
    const mine = await mint(a.apiKey, { content_hash: randomContentHash(), title: "mine" });
    expect(mine.status).toBe(201);
    const theirs = await api("/v1/consumer/protections", { key: b.apiKey });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual({ items: [], total: 0, next_cursor: null });
    expectProblem(await api(`/v1/consumer/protections/${mine.body.protection_id}/proof-bundle`, { key: b.apiKey }), 404, "not_found");
  });
});
