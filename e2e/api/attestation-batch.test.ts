// @hallmark-test db=sqlite,postgres lane=main
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { api, createIssuer, expectProblem, logKey, orgWithIssuer } from "./helpers";

const treeSize = async (): Promise<number> => (await api("/v1/log")).body.tree_size;
type Item = { issuer_id: string; payload: Record<string, unknown> };
const item = (issuerId: string, i: number, extra: Record<string, unknown> = {}): Item => ({
  issuer_id: issuerId,
  payload: { content_hash: randomUUID(), n: i, ...extra },
});

describe("POST /v1/attestations/batch", () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    ({ key, issuerId } = await orgWithIssuer());
  });

  it("signs and logs 1,000 items in one request, in order with contiguous indexes, and every bundle verifies", async () => {
    // About 430 KB: past the 256 KiB every other endpoint accepts, within the batch's 8 MiB.
    const items = Array.from({ length: 1000 }, (_, i) => item(issuerId, i, { note: "ü".repeat(150) }));
    const before = await treeSize();
    const res = await api("/v1/attestations/batch", { key, json: { items } });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(Buffer.byteLength(JSON.stringify({ items }))).toBeGreaterThan(256 * 1024);
    const made = res.body.attestations as { id: string; payload: unknown; log_index: number; issuer_id: string }[];
    expect(made).toHaveLength(1000);
    made.forEach((a, i) => {
      expect(a.payload).toEqual(items[i]!.payload);
      expect(a.issuer_id).toBe(issuerId);
      expect(a.log_index).toBe(made[0]!.log_index + i);
    });
    expect(made[0]!.log_index).toBeGreaterThanOrEqual(before);
    expect(new Set(made.map((a) => a.id)).size).toBe(1000);
    const logPublicKey = await logKey();
    for (let i = 0; i < made.length; i += 50) {
      const bundles = await Promise.all(made.slice(i, i + 50).map((a) => api(`/v1/attestations/${a.id}/proof-bundle`, { key })));
      for (const [j, b] of bundles.entries()) {
        expect(b.status).toBe(200);
        expect(b.body.attestation).toEqual({ ...made[i + j], status: "VALID" });
        const result = verifyProofBundle(b.body, { logPublicKey });
        expect(result.ok, JSON.stringify(result)).toBe(true);
      }
    }
  });

  it("refuses the whole batch when any item is invalid, with a pointer per problem, and writes nothing", async () => {
    const other = await orgWithIssuer();
    const items = Array.from({ length: 30 }, (_, i) => item(issuerId, i));
    items[3] = { issuer_id: randomUUID(), payload: { a: 1 } };
    items[9] = { issuer_id: other.issuerId, payload: { a: 1 } }; // another account's issuer: as unknown
    items[17] = { issuer_id: issuerId, payload: { b: "x".repeat(66_000) } };
    (items[21] as Record<string, unknown>).payload = "not an object";
    (items[25] as Record<string, unknown>).extra = true;
    const before = await treeSize();
    const res = await api("/v1/attestations/batch", { key, json: { items } });
    expectProblem(res, 422, "validation_failed");
    const pointers = (res.body.errors as { pointer: string }[]).map((e) => e.pointer).sort();
    // Schema problems are reported first, alone: the items are not signed until the body is well-formed.
    expect(pointers).toEqual(["/items/21/payload", "/items/25/extra"]);
    delete (items[25] as Record<string, unknown>).extra;
    items[21] = item(issuerId, 21);
    const second = await api("/v1/attestations/batch", { key, json: { items } });
    expectProblem(second, 422, "validation_failed");
    expect(second.body.errors).toEqual([
      { pointer: "/items/3/issuer_id", detail: "no such issuer in this account" },
      { pointer: "/items/9/issuer_id", detail: "no such issuer in this account" },
      { pointer: "/items/17/payload", detail: expect.stringContaining("at most") },
    ]);
    expect(await treeSize()).toBe(before);
  });

  it("bounds each item's log entry as a single attestation's: 65,233 canonical bytes are logged, one more refuses the batch", async () => {
    // As in attestations.test.ts: {"b":"…"} is 8 bytes around its string, the leaf adds 302.
    // 100 items: composed and signed on the signing workers, not on the event loop.
    const items = Array.from({ length: 100 }, (_, i) => item(issuerId, i));
    const before = await treeSize();
    items[40] = { issuer_id: issuerId, payload: { b: "x".repeat(65_234 - 8) } };
    const over = await api("/v1/attestations/batch", { key, json: { items } });
    expectProblem(over, 422, "validation_failed");
    expect(over.body.errors).toEqual([{ pointer: "/items/40/payload", detail: expect.stringContaining("at most 65233") }]);
    expect(await treeSize()).toBe(before);
    items[40] = { issuer_id: issuerId, payload: { b: "x".repeat(65_233 - 8) } };
    const largest = await api("/v1/attestations/batch", { key, json: { items } });
    expect(largest.status, largest.text.slice(0, 300)).toBe(201);
    const id = largest.body.attestations[40].id;
    const bundle = await api(`/v1/attestations/${id}/proof-bundle`, { key });
    expect(verifyProofBundle(bundle.body, { logPublicKey: await logKey() }).ok).toBe(true);
  });

  it("bounds the batch: no items, more than 1,000 items and a body past 8 MiB are refused", async () => {
    const before = await treeSize();
    const empty = await api("/v1/attestations/batch", { key, json: { items: [] } });
    expectProblem(empty, 422, "validation_failed");
    expect(empty.body.errors[0].pointer).toBe("/items");
    const many = await api("/v1/attestations/batch", { key, json: { items: Array.from({ length: 1001 }, (_, i) => item(issuerId, i)) } });
    expectProblem(many, 422, "validation_failed");
    expect(many.body.errors[0].pointer).toBe("/items");
    const big = Array.from({ length: 200 }, (_, i) => item(issuerId, i, { fill: "x".repeat(45_000) }));
    expectProblem(await api("/v1/attestations/batch", { key, json: { items: big } }), 413, "payload_too_large");
    expect(await treeSize()).toBe(before);
  });

  it("signs each item with its own issuer's key", async () => {
    const second = await createIssuer(key);
    const items = [item(issuerId, 0), item(second.id, 1), item(issuerId, 2)];
    const res = await api("/v1/attestations/batch", { key, json: { items } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.attestations.map((a: { issuer_id: string }) => a.issuer_id)).toEqual([issuerId, second.id, issuerId]);
    const logPublicKey = await logKey();
    for (const a of res.body.attestations) {
      const b = await api(`/v1/attestations/${a.id}/proof-bundle`, { key });
      expect(verifyProofBundle(b.body, { logPublicKey }).ok).toBe(true);
    }
  });

  it("with an Idempotency-Key: a retry replays the first answer and logs nothing; another body under the key is 422", async () => {
    const items = Array.from({ length: 20 }, (_, i) => item(issuerId, i));
    const idem = { "idempotency-key": `batch-${randomUUID()}` };
    // Sent at once: the concurrent copies wait for the first and get its answer.
    const [first, ...copies] = await Promise.all(
      Array.from({ length: 4 }, () => api("/v1/attestations/batch", { key, json: { items }, headers: idem })),
    );
    expect(first!.status).toBe(201);
    const size = await treeSize();
    const retry = await api("/v1/attestations/batch", { key, json: { items }, headers: idem });
    for (const r of [...copies, retry]) {
      expect(r.status).toBe(201);
      expect(r.body).toEqual(first!.body);
    }
    expect([first, ...copies, retry].filter((r) => r!.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    expect(await treeSize()).toBe(size);
    const reused = await api("/v1/attestations/batch", { key, json: { items: items.slice(1) }, headers: idem });
    expectProblem(reused, 422, "idempotency_key_reused");
    expect(await treeSize()).toBe(size);
  });
});
